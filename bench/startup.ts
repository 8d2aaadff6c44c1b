/**
 * bench/startup (issue 14 "Start-up"): how long `npm start` takes to answer GET /api/v1/health
 * with 200, from the spawn of the process, on (a) a fresh data directory and (b) one a previous
 * start left, five runs each (min / median / max), against a same-run baseline: a bare Node HTTP
 * server (`node -e "require('http').createServer(…).listen(PORT)"`) spawned and polled the same
 * way, so the ratios say what Cutdesk adds to Node's own start.
 *
 * The server is spawned as `npm start` runs it (`node scripts/start.ts`, with the project's
 * Node) but with a built web app already there: `STARTUP_WEB_DIR`, else `dist/` when it is
 * newer than its sources, else one built here once into a temporary folder (not measured).
 * DEMO_VIDEOS=off (the demo videos are made after the start, in the background, anyway).
 *
 * Each run sets CUTDESK_STARTUP_TRACE=1: the server prints when each step of its start ended
 * (server/startup-trace.ts), and the medians of those marks are the breakdown.
 *
 * Fresh runs use the database image cache as a user's machine has it after the first start
 * (server/db/image.ts); `fresh, no image` runs give each start an empty cache of its own (the
 * first start after a clone or a migration change, which makes the image).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const RUNS = Number(process.env.STARTUP_RUNS ?? 5);
const PASSWORD = 'demo-password';

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

function newestSource(paths: string[]): number {
  let newest = 0;
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  paths.forEach(visit);
  return newest;
}

const SOURCES = ['src', 'workers', 'public', 'index.html', 'vite.config.ts', 'package.json'];

/** A built web app that scripts/start.ts will not rebuild, and whether it is ours to touch. */
async function webApp(): Promise<{ dir: string; ours: boolean }> {
  if (process.env.STARTUP_WEB_DIR) return { dir: resolve(process.env.STARTUP_WEB_DIR), ours: false };
  const dist = resolve('dist');
  if (existsSync(join(dist, 'index.html')) && statSync(join(dist, 'index.html')).mtimeMs >= newestSource(SOURCES)) return { dir: dist, ours: false };
  const dir = await mkdtemp(join(tmpdir(), 'cutdesk-bench-startup-web-'));
  console.log(`building the web app into ${dir} (not measured)…`);
  const { build } = await import('vite');
  await build({ logLevel: 'warn', build: { outDir: dir, emptyOutDir: true } });
  const { compressBuild } = await import('../scripts/compress-build.ts');
  await compressBuild(dir);
  return { dir, ours: true };
}

/** Asks `url` until it answers 200; resolves with the time of that answer (performance.now()). */
function pollUntilOk(url: string, child: ReturnType<typeof spawn>): Promise<number> {
  return new Promise((done, fail) => {
    const deadline = performance.now() + 60_000;
    const attempt = () => {
      if (child.exitCode !== null) return fail(new Error(`the process exited (${child.exitCode}) before answering`));
      if (performance.now() > deadline) return fail(new Error('no answer within 60 s'));
      const req = request(url, { agent: false }, (res) => {
        res.resume();
        if (res.statusCode === 200) done(performance.now());
        else setTimeout(attempt, 5);
      });
      req.on('error', () => setTimeout(attempt, 5));
      req.end();
    };
    attempt();
  });
}

interface Run {
  ms: number;
  trace: Record<string, number> | null;
}

/** Spawns `args` with `env`, measures spawn → first 200 of /api/v1/health, then stops it. */
async function timeStart(args: string[], env: Record<string, string>): Promise<Run> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  try {
    const answered = await pollUntilOk(`http://127.0.0.1:${port}/api/v1/health`, child);
    // The trace line is written just after listen; give it a moment to arrive.
    await new Promise((done) => setTimeout(done, 50));
    const line = stderr.split('\n').find((l) => l.startsWith('startup-trace '));
    return { ms: answered - started, trace: line ? (JSON.parse(line.slice('startup-trace '.length)) as Record<string, number>) : null };
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${stderr.slice(-2000)}`, { cause: error });
  } finally {
    const exited = new Promise((done) => child.once('exit', done));
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  }
}

function stats(runs: Run[]) {
  const sorted = runs.map((r) => r.ms).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const steps: Record<string, number> = {};
  const traced = runs.filter((r) => r.trace);
  for (const step of Object.keys(traced[0]?.trace ?? {})) {
    const values = traced.map((r) => r.trace![step]!).sort((a, b) => a - b);
    steps[step] = values[Math.floor(values.length / 2)]!;
  }
  return { min: Math.round(sorted[0]!), median: Math.round(median), max: Math.round(sorted.at(-1)!), traceMedians: steps };
}

export async function benchStartup(): Promise<Record<string, unknown>> {
  const web = await webApp();
  const scratch = await mkdtemp(join(tmpdir(), 'cutdesk-bench-startup-'));
  const cacheDir = process.env.STARTUP_CACHE_DIR;
  const serverEnv = (dataDir: string, extra: Record<string, string> = {}) => ({
    DATA_DIR: dataDir,
    WEB_DIR: web.dir,
    DEMO_VIDEOS: 'off',
    DEMO_PASSWORD: PASSWORD,
    LOG_LEVEL: 'warn',
    CUTDESK_STARTUP_TRACE: '1',
    ...(cacheDir ? { CUTDESK_CACHE_DIR: cacheDir } : {}),
    ...extra,
  });
  const touch = () => {
    if (web.ours) utimesSync(join(web.dir, 'index.html'), new Date(), new Date());
  };
  const baseline: Run[] = [];
  const fresh: Run[] = [];
  const freshNoImage: Run[] = [];
  const existing: Run[] = [];
  const existingDir = join(scratch, 'existing');
  try {
    // Not measured: warms the file cache, Node's compile cache and the database image, and
    // leaves the data directory the `existing` runs start on.
    touch();
    await timeStart(['scripts/start.ts'], serverEnv(existingDir));
    for (let i = 0; i < RUNS; i++) {
      // Interleaved, so a busy moment of the shared machine touches every kind alike.
      baseline.push(await timeStart(['-e', "require('http').createServer((q,s)=>s.end('ok')).listen(process.env.PORT)"], {}));
      touch();
      fresh.push(await timeStart(['scripts/start.ts'], serverEnv(join(scratch, `fresh-${i}`))));
      touch();
      existing.push(await timeStart(['scripts/start.ts'], serverEnv(existingDir)));
      if (process.env.STARTUP_NO_IMAGE !== 'off') {
        touch();
        freshNoImage.push(await timeStart(['scripts/start.ts'], serverEnv(join(scratch, `fresh-no-image-${i}`), { CUTDESK_CACHE_DIR: join(scratch, `cache-${i}`) })));
      }
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
    if (web.ours) await rm(web.dir, { recursive: true, force: true });
  }
  const b = stats(baseline);
  const ratio = (s: { median: number }) => Math.round((s.median / b.median) * 10) / 10;
  const figures: Record<string, unknown> = { runs: RUNS, webDir: web.dir, baselineBareNodeMs: b };
  for (const [name, runs] of [['existing', existing], ['fresh', fresh], ['freshNoImage', freshNoImage]] as const) {
    if (!runs.length) continue;
    const s = stats(runs);
    figures[name] = { ...s, medianVsBaseline: ratio(s) };
  }
  return figures;
}
