/**
 * bench/server-memory: what the server's process holds from its start (docs/operations.md
 * "Memory"). `node server/main.ts` on data a first start left (demo data, no web app), with
 * PostgreSQL (the same-run baseline: a throwaway database on the local server,
 * BENCH_DATABASE_URL), with embedded PGlite, and with embedded PGlite under `node
 * --liftoff-only` (PGlite's WebAssembly left on V8's baseline compiler). Per run: the time to a
 * healthy answer, the peak resident memory (`VmHWM`) until 3 s after it, and what is resident
 * then (`VmRSS`); BENCH_ROUNDS rounds (2), the kinds interleaved; ratios against PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SETTLE_MS = 3_000;

type Kind = 'postgresql' | 'pglite' | 'pglite --liftoff-only';
const KINDS: Kind[] = ['postgresql', 'pglite', 'pglite --liftoff-only'];

function statusKiB(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? NaN);
}

/** One start on `dataDir`: until healthy, then SETTLE_MS more; stopped after. */
async function measure(dataDir: string, env: Record<string, string>, nodeFlags: string[]) {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeFlags, resolve('server/main.ts')], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      S3_PORT: '0',
      WEB_DIR: join(dataDir, 'no-web'),
      SEED: 'demo',
      DEMO_PASSWORD: 'bench-password',
      DEMO_VIDEOS: 'off',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: 'ignore',
  });
  const started = performance.now();
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
      if (
        await fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
          (answer) => answer.ok,
          () => false,
        )
      )
        break;
      if (performance.now() - started > 120_000) throw new Error('the server did not start in 2 minutes');
      await new Promise((done) => setTimeout(done, 20));
    }
    const healthyMs = Math.round(performance.now() - started);
    await new Promise((done) => setTimeout(done, SETTLE_MS));
    return { healthyMs, peakMiB: Math.round(statusKiB(child.pid!, 'VmHWM') / 1024), settledMiB: Math.round(statusKiB(child.pid!, 'VmRSS') / 1024) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => (child.exitCode !== null ? done(null) : child.once('exit', done)));
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function benchServerMemory(): Promise<Record<string, unknown>> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `cutdesk_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const databaseUrl = Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();
  const dirs = { postgresql: await mkdtemp(join(tmpdir(), 'cutdesk-bench-memory-pg-')), pglite: await mkdtemp(join(tmpdir(), 'cutdesk-bench-memory-pglite-')) };
  const setUp = (kind: Kind): { dir: string; env: Record<string, string>; flags: string[] } =>
    kind === 'postgresql'
      ? { dir: dirs.postgresql, env: { DATABASE_URL: databaseUrl }, flags: [] }
      : { dir: dirs.pglite, env: {}, flags: kind === 'pglite' ? [] : ['--liftoff-only'] };
  try {
    // First starts: migrations and demo data, so every measured start opens existing data.
    for (const kind of ['postgresql', 'pglite'] as const) await measure(setUp(kind).dir, setUp(kind).env, []);
    const runs: Record<Kind, Awaited<ReturnType<typeof measure>>[]> = { postgresql: [], pglite: [], 'pglite --liftoff-only': [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const kind of KINDS) {
        const { dir, env, flags } = setUp(kind);
        runs[kind].push(await measure(dir, env, flags));
      }
    }
    const summary = Object.fromEntries(
      KINDS.map((kind) => {
        const each = runs[kind];
        const peak = median(each.map((run) => run.peakMiB));
        const settled = median(each.map((run) => run.settledMiB));
        const base = runs.postgresql;
        return [
          kind,
          {
            'healthy after (ms, median)': median(each.map((run) => run.healthyMs)),
            'peak MiB (median)': peak,
            'settled MiB (median)': settled,
            'peak ÷ PostgreSQL peak': (peak / median(base.map((run) => run.peakMiB))).toFixed(2),
            'settled ÷ PostgreSQL settled': (settled / median(base.map((run) => run.settledMiB))).toFixed(2),
          },
        ];
      }),
    );
    return { rounds: ROUNDS, summary, runs };
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
    await admin.end();
    await Promise.all(Object.values(dirs).map((dir) => rm(dir, { recursive: true, force: true })));
  }
}
