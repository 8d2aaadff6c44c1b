import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const DEBIAN_POSTGRESQL = '/usr/lib/postgresql';

/**
 * A PostgreSQL server of a test's own, started and stopped by the test (Debian's binaries): one
 * initdb (≈ 0.7 s, no fsync), trust authentication, loopback only, on a free port kept across
 * restarts so the clients that knew it reconnect.
 */
export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (any password in it is ignored: trust). */
  readonly url: string;
  readonly port: number;
  start(): Promise<void>;
  /** A fast shutdown: sessions are ended (admin_shutdown, 57P01), new connections refused. */
  stop(): Promise<void>;
  /** Stops the server if it runs and deletes its files. */
  remove(): Promise<void>;
}

/** The newest installed `/usr/lib/postgresql/<version>/bin`, or null. */
function binDir(): string | null {
  if (!existsSync(DEBIAN_POSTGRESQL)) return null;
  const versions = readdirSync(DEBIAN_POSTGRESQL)
    .filter(
      (name) => /^\d+$/.test(name) && existsSync(join(DEBIAN_POSTGRESQL, name, 'bin', 'initdb')) && existsSync(join(DEBIAN_POSTGRESQL, name, 'bin', 'pg_ctl')),
    )
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(DEBIAN_POSTGRESQL, versions[0], 'bin') : null;
}

/** The `postgres` account to run the server as when this process is root (initdb refuses root). */
function postgresAccount(): { uid: number; gid: number } | null {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : null;
  } catch {
    return null;
  }
}

/** Why a private PostgreSQL cannot run here, or null when it can. */
export function privatePostgresMissing(): string | null {
  if (!binDir()) return `no PostgreSQL server binaries (initdb, pg_ctl) in ${DEBIAN_POSTGRESQL}/*/bin (Debian's postgresql package)`;
  if (process.getuid?.() === 0 && !postgresAccount()) return 'running as root without a postgres account to run initdb as';
  return null;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done, fail) => server.once('error', fail).listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  if (typeof address !== 'object' || !address) throw new Error('no free port');
  return address.port;
}

/** initdb into a new temporary directory; the server is not started yet. */
export async function createPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  if (!bin) throw new Error(privatePostgresMissing() ?? 'no PostgreSQL');
  const root = process.getuid?.() === 0;
  const account = root ? postgresAccount() : null;
  const dir = await mkdtemp(join(tmpdir(), 'cutdesk-pg-'));
  if (account) await chown(dir, account.uid, account.gid);
  const data = join(dir, 'data');
  const port = await freePort();
  const pg = (tool: string, args: string[]) => (account ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]) : run(join(bin, tool), args));
  await pg('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']).catch(async (error: unknown) => {
    await rm(dir, { recursive: true, force: true });
    throw error;
  });
  let running = false;
  const stop = async (mode: 'fast' | 'immediate') => {
    if (!running) return;
    await pg('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '20', 'stop']);
    running = false;
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async start() {
      // Loopback and a socket in its own directory: nothing of the machine's PostgreSQL is touched.
      const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=40 -c shared_buffers=16MB`;
      await pg('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '20', 'start']);
      running = true;
    },
    stop: () => stop('fast'),
    async remove() {
      await stop('immediate').catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
