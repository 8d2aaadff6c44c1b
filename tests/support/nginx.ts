import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

/**
 * Debian's nginx started by a test with the shipped site, deploy/nginx.conf, in front of servers
 * of the test's own: a top-level configuration in a temporary directory (`-p`, `daemon off`, its
 * pid, logs and temporary files there, one worker process) that defines the upstreams and
 * includes the site with the lines an operator edits (marked EDIT) set as the test needs them:
 * the `upstream` section between `# >>> EDIT` and `# <<< EDIT` left out (the test defines its
 * own), the `listen` lines on free ports of 127.0.0.1, the `access_log` lines in the directory.
 * Nothing else of the file changes.
 */

export const SITE_FILE = resolve('deploy/nginx.conf');

/** nginx on this machine (Debian puts it in /usr/sbin, which a user's PATH may lack); a clear error when there is none. */
export function nginxBinary(): string {
  const candidates = [
    ...(process.env.PATH ?? '')
      .split(delimiter)
      .filter(Boolean)
      .map((dir) => join(dir, 'nginx')),
    '/usr/sbin/nginx',
  ];
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // the next one
    }
  }
  throw new Error("nginx is not installed: this test runs Debian's nginx in front of the servers it starts (apt-get install nginx; .ci/run installs it)");
}

/** The site as the test runs it: the EDIT lines set (see above), every other line as shipped. */
export function siteForTest(source: string, options: { port: number; storePort: number; accessLog: string }): string {
  const lines = source.split('\n');
  const start = lines.findIndex((line) => line.startsWith('# >>> EDIT'));
  const end = lines.findIndex((line) => line.startsWith('# <<< EDIT'));
  if (start < 0 || end < start || lines.filter((line) => /^# (>>>|<<<) EDIT/.test(line)).length !== 2)
    throw new Error('deploy/nginx.conf: one section between "# >>> EDIT" and "# <<< EDIT" was expected');
  const cut = lines.slice(start, end + 1).filter((line) => !line.trim().startsWith('#') && line.trim() !== '');
  const upstreams = cut.filter((line) => line.startsWith('upstream ')).map((line) => line.split(/\s+/)[1]);
  if (upstreams.join() !== 'cutdesk,cutdesk_store,cutdesk_store_port')
    throw new Error(
      `deploy/nginx.conf: the EDIT section should hold the upstreams cutdesk, cutdesk_store and cutdesk_store_port (found ${upstreams.join(', ')})`,
    );
  const ports = [options.port, options.storePort];
  let listens = 0;
  let logs = 0;
  const kept = [...lines.slice(0, start), ...lines.slice(end + 1)].map((line) => {
    if (!/#\s*EDIT/.test(line)) return line;
    const indent = /^\s*/.exec(line)![0];
    if (/^\s*listen\s/.test(line)) return `${indent}listen 127.0.0.1:${ports[listens++]};`;
    if (/^\s*access_log\s/.test(line)) {
      logs += 1;
      return `${indent}access_log ${options.accessLog} cutdesk;`;
    }
    return line;
  });
  if (listens !== 2 || logs !== 2)
    throw new Error(`deploy/nginx.conf: two servers with a "listen" and an "access_log" line marked EDIT were expected (found ${listens} and ${logs})`);
  return kept.join('\n');
}

/** A port nobody listens on now, on 127.0.0.1 (the system's choice). */
export async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}

/** One line of the site's access log (log_format cutdesk). */
export interface AccessLine {
  method: string;
  uri: string;
  status: number;
  id: string;
  /** The upstream addresses nginx tried, in order (`127.0.0.1:8080`). */
  upstreams: string[];
}

export interface RunningNginx {
  /** The site (`http://localhost:<port>`). */
  url: string;
  port: number;
  /** The store's own server block (`http://localhost:<storePort>`). */
  storeUrl: string;
  storePort: number;
  dir: string;
  accessLog(): Promise<AccessLine[]>;
  errorLog(): Promise<string>;
  stop(): Promise<void>;
}

const ACCESS_LINE = /"(\S+) (\S+) [^"]*" (\d{3}) \d+ \S+ id=(\S*) upstream=(.*)$/;

function parseAccessLine(line: string): AccessLine | null {
  const match = ACCESS_LINE.exec(line);
  if (!match) return null;
  // `$upstream_addr/$upstream_status`: "a:1, b:2/502, 200" when nginx tried two.
  const addresses = match[5]!.split('/')[0]!;
  return { method: match[1]!, uri: match[2]!, status: Number(match[3]), id: match[4]!, upstreams: addresses === '-' ? [] : addresses.split(/,\s*/) };
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolveAccepts) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolveAccepts(true);
    });
    socket.once('error', () => resolveAccepts(false));
  });
}

/**
 * Starts nginx with the site. `upstreams`: the test's `upstream` blocks (cutdesk,
 * cutdesk_store, cutdesk_store_port), as an operator writes them in the EDIT section; `avoid`:
 * ports the test has chosen for servers that do not listen yet.
 */
export async function startNginx(upstreams: string, avoid: number[] = []): Promise<RunningNginx> {
  const binary = nginxBinary();
  const dir = await mkdtemp(join(tmpdir(), 'cutdesk-nginx-'));
  // Started as root, nginx runs its worker as another user, which must reach its temporary paths.
  await chmod(dir, 0o711);
  const source = await readFile(SITE_FILE, 'utf8');
  for (let attempt = 1; ; attempt += 1) {
    let port = await freeLoopbackPort();
    while (avoid.includes(port)) port = await freeLoopbackPort();
    let storePort = await freeLoopbackPort();
    while (storePort === port || avoid.includes(storePort)) storePort = await freeLoopbackPort();
    await writeFile(join(dir, 'cutdesk.conf'), siteForTest(source, { port, storePort, accessLog: join(dir, 'access.log') }));
    await writeFile(
      join(dir, 'nginx.conf'),
      [
        'daemon off;',
        // One worker: its round-robin alternates between the instances request by request.
        'worker_processes 1;',
        `pid ${join(dir, 'nginx.pid')};`,
        `error_log ${join(dir, 'error.log')} warn;`,
        'events { worker_connections 512; }',
        'http {',
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${join(dir, kind)};`),
        upstreams,
        `  include ${join(dir, 'cutdesk.conf')};`,
        '}',
        '',
      ].join('\n'),
    );
    let stderr = '';
    const child: ChildProcess = spawn(binary, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
    const until = Date.now() + 10_000;
    let up = false;
    while (!up && child.exitCode === null && child.signalCode === null && Date.now() < until) {
      up = (await accepts(port)) && (await accepts(storePort));
      if (!up) await new Promise((r) => setTimeout(r, 20));
    }
    if (!up) {
      child.kill('SIGKILL');
      await exited;
      const errors = `${stderr}${await readFile(join(dir, 'error.log'), 'utf8').catch(() => '')}`;
      // Another process took a port between its choice and nginx's start: choose again.
      if (/Address already in use/.test(errors) && attempt < 3) continue;
      await rm(dir, { recursive: true, force: true });
      throw new Error(`nginx did not start:\n${errors}`);
    }
    return {
      url: `http://localhost:${port}`,
      port: port,
      storeUrl: `http://localhost:${storePort}`,
      storePort: storePort,
      dir,
      accessLog: async () =>
        (await readFile(join(dir, 'access.log'), 'utf8').catch(() => ''))
          .split('\n')
          .map(parseAccessLine)
          .filter((line): line is AccessLine => line !== null),
      errorLog: () => readFile(join(dir, 'error.log'), 'utf8').catch(() => ''),
      async stop() {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          await exited;
        }
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
}
