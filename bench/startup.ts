/**
 * bench/startup (issue 14 "Start-up"): how long `npm start` takes to answer GET /api/v1/health
 * with 200, from the spawn of the process, on (a) a fresh data directory and (b) one a previous
 * start left, five runs each (min / median / max), against two same-run baselines spawned and
 * polled the same way: a bare Fastify server answering the same path (issue 34: the ratios say
 * what Cutdesk adds to the framework it is built on, and are the figures its goals are set in),
 * and a bare Node HTTP server (what Node's own start costs). Each round runs every kind once,
 * so each ratio is also given per round (min / median / max of the rounds' ratios).
 *
 * The server is spawned as `npm start` runs it (`node scripts/start.ts`, with the project's
 * Node) but with a built web app already there: `STARTUP_WEB_DIR`, else `dist/` when it is
 * newer than its sources, else one built here once into a temporary folder (not measured).
 * DEMO_VIDEOS=off (the demo videos are made after the start, in the background, anyway).
 *
 * Two more kinds say where the floor is: `existing, PostgreSQL` starts the same server on data a
 * previous start left in a database of its own on the local PostgreSQL server (`STARTUP_POSTGRES`,
 * else TEST_DATABASE_URL, else 127.0.0.1:5432; `off` leaves it out), and `bare Fastify + PGlite
 * open` is the bare Fastify start that answers only once PGlite has opened the `existing` data
 * directory: what the embedded database alone adds to the framework; `bare Fastify + PGlite from
 * the image` is the same for a first start (a new directory unpacked from the database image).
 *
 * Each run sets CUTDESK_STARTUP_TRACE=1: the server prints when each step of its start ended
 * (server/startup-trace.ts), and the medians of those marks are the breakdown.
 *
 * Fresh runs use the database image cache as a user's machine has it after the first start
 * (server/db/image.ts); `fresh, no image` runs give each start an empty cache of its own (the
 * first start after a clone or a migration change, which makes the image).
 *
 * Each run also reports the CPU time (user + system) the server's process had used when it
 * first answered, read from /proc (Linux): on shared cores it varies less than the wall time.
 *
 * Before and after in one run: `STARTUP_TREES=before=<dir>,after=<dir>` starts each tree's
 * `scripts/start.ts` (e.g. `git archive <commit> | tar -x -C .tmp/startup-before`; a tree under
 * this checkout finds its node_modules), interleaved round by round with the baseline. Data
 * directories go to `.tmp/startup-bench-*` (STARTUP_SCRATCH_DIR chooses another parent).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import { freePort } from './free-port.ts';
import { webBuildIsCurrent } from '../scripts/web-sources.ts';

const RUNS = Number(process.env.STARTUP_RUNS ?? 5);
/** How long one start may take before the run fails (a machine shared with test suites can be slow). */
const TIMEOUT_MS = Number(process.env.STARTUP_TIMEOUT_MS ?? 180_000);
const PASSWORD = 'demo-password';
/** The framework's own start: Fastify (the version Cutdesk runs) answering the path the bench polls. */
const BARE_FASTIFY =
  "const app = require('fastify')(); app.get('/api/v1/health', async () => ({ status: 'ok' })); app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });";
/**
 * The floor of any server on the embedded database (issue 34): the same bare Fastify, answering
 * only once PGlite has opened a data directory a Cutdesk start left (`PGLITE_DIR`), in one
 * process, nothing else loaded. A Cutdesk start on existing data cannot be faster than this.
 * With `PGLITE_IMAGE` (and `IMAGE_MODULE`, server/db/image.ts), the floor of a first start: the
 * new directory is first unpacked from the database image by Cutdesk's own unpack (42 MB of a
 * migrated database written, then opened), what a first start cannot avoid before the seed.
 */
const BARE_FASTIFY_PGLITE = [
  "const [{ PGlite }, { default: Fastify }] = await Promise.all([import('@electric-sql/pglite'), import('fastify')]);",
  'if (process.env.PGLITE_IMAGE) (await import(process.env.IMAGE_MODULE)).unpackImage(process.env.PGLITE_IMAGE, process.env.PGLITE_DIR);',
  'const opening = PGlite.create(process.env.PGLITE_DIR);',
  "const app = Fastify(); app.get('/api/v1/health', async () => ({ status: 'ok' }));",
  'const db = await opening;',
  "process.once('SIGTERM', () => db.close().then(() => process.exit(0)));",
  "await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });",
].join('\n');
/** A PostgreSQL server for the `existing, PostgreSQL` kind (`STARTUP_POSTGRES=off` leaves it out). */
const POSTGRES = process.env.STARTUP_POSTGRES ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Where the bench's data directories and web build go: `.tmp/` of the checkout by default. */
function scratchParent(): string {
  const parent = resolve(process.env.STARTUP_SCRATCH_DIR ?? '.tmp');
  mkdirSync(parent, { recursive: true });
  return parent;
}

/**
 * CPU time (user + system, ms) the process `pid` has used, from /proc; null elsewhere. With
 * `mainThread`, only its JavaScript thread's (the start's critical path: V8's compiler and GC
 * helper threads left out).
 */
function cpuMsOf(pid: number | undefined, mainThread = false): number | null {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = readFileSync(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8')
      .split(') ')[1]!
      .split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

/** A built web app that scripts/start.ts will not rebuild, and whether it is ours to touch. */
async function webApp(): Promise<{ dir: string; ours: boolean }> {
  if (process.env.STARTUP_WEB_DIR) return { dir: resolve(process.env.STARTUP_WEB_DIR), ours: false };
  const dist = resolve('dist');
  if (webBuildIsCurrent(dist)) return { dir: dist, ours: false };
  const dir = await mkdtemp(join(scratchParent(), 'startup-bench-web-'));
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
    const deadline = performance.now() + TIMEOUT_MS;
    const attempt = () => {
      if (child.exitCode !== null) return fail(new Error(`the process exited (${child.exitCode}) before answering`));
      if (performance.now() > deadline) return fail(new Error(`no answer within ${TIMEOUT_MS / 1000} s`));
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
  /** CPU time the process had used when it answered (null off Linux). */
  cpuMs: number | null;
  /** The same for its main (JavaScript) thread alone. */
  mainThreadCpuMs: number | null;
  trace: Record<string, number> | null;
}

/** Spawns `args` with `env` (in `cwd`), measures spawn → first 200 of /api/v1/health, then stops it. */
async function timeStart(args: string[], env: Record<string, string>, cwd = process.cwd()): Promise<Run> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  try {
    const answered = await pollUntilOk(`http://127.0.0.1:${port}/api/v1/health`, child);
    const cpuMs = cpuMsOf(child.pid);
    const mainThreadCpuMs = cpuMsOf(child.pid, true);
    // The trace line is written just after listen; give it a moment to arrive.
    await new Promise((done) => setTimeout(done, 50));
    const line = stderr.split('\n').find((l) => l.startsWith('startup-trace '));
    return { ms: answered - started, cpuMs, mainThreadCpuMs, trace: line ? (JSON.parse(line.slice('startup-trace '.length)) as Record<string, number>) : null };
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
  const spread = (values: (number | null)[]) => {
    const known = values.filter((ms): ms is number => ms !== null).sort((a, b) => a - b);
    return known.length ? { min: known[0]!, median: known[Math.floor(known.length / 2)]!, max: known.at(-1)! } : null;
  };
  return {
    min: Math.round(sorted[0]!),
    median: Math.round(median),
    max: Math.round(sorted.at(-1)!),
    cpuMs: spread(runs.map((r) => r.cpuMs)),
    mainThreadCpuMs: spread(runs.map((r) => r.mainThreadCpuMs)),
    traceMedians: steps,
  };
}

/** Each run on stderr as it ends: a long run on a busy machine shows where it is. */
function progress(what: string, run: Run): Run {
  process.stderr.write(`startup ${what}: ${Math.round(run.ms)} ms, CPU ${run.cpuMs ?? '?'} ms (main thread ${run.mainThreadCpuMs ?? '?'} ms)\n`);
  return run;
}

/** The trees to start: `STARTUP_TREES=name=dir,…`, else this checkout alone. */
function trees(): { name: string; dir: string }[] {
  const spec = process.env.STARTUP_TREES;
  if (!spec) return [{ name: 'cutdesk', dir: process.cwd() }];
  return spec.split(',').map((entry) => {
    const [name, dir] = entry.split('=');
    if (!name || !dir || !existsSync(join(dir, 'scripts', 'start.ts'))) throw new Error(`STARTUP_TREES: ${entry} is not name=<a tree with scripts/start.ts>`);
    return { name, dir: resolve(dir) };
  });
}

export async function benchStartup(): Promise<Record<string, unknown>> {
  const web = await webApp();
  const scratch = await mkdtemp(join(scratchParent(), 'startup-bench-'));
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
  // scripts/start.ts rebuilds a web app older than its tree's sources: a folder of the bench's
  // own is kept newer than any edit made meanwhile (dist/ is left alone).
  const touch = () => {
    if (web.ours || process.env.STARTUP_WEB_DIR) utimesSync(join(web.dir, 'index.html'), new Date(), new Date());
  };
  const baseline: Run[] = [];
  const fastify: Run[] = [];
  const floor: Run[] = [];
  const freshFloor: Run[] = [];
  const kinds = ['existing', 'existingPostgres', 'fresh', 'freshNoImage'] as const;
  const runs = trees().map((tree) => ({ ...tree, existing: [] as Run[], existingPostgres: [] as Run[], fresh: [] as Run[], freshNoImage: [] as Run[] }));
  const databases = POSTGRES === 'off' ? null : await postgresDatabases(runs.map((tree) => tree.name));
  const postgresEnv = (tree: { name: string }) => serverEnv(join(scratch, `${tree.name}-existing-pg`), { DATABASE_URL: databases!.url(tree.name) });
  try {
    // Not measured: warms the file cache, Node's compile cache and the database image, and
    // leaves the data directory each tree's `existing` runs start on.
    for (const tree of runs) {
      touch();
      await timeStart(['scripts/start.ts'], serverEnv(join(scratch, `${tree.name}-existing`)), tree.dir);
      if (databases) await timeStart(['scripts/start.ts'], postgresEnv(tree), tree.dir);
    }
    for (let i = 0; i < RUNS; i++) {
      // Interleaved, so a busy moment of the shared machine touches every kind alike.
      baseline.push(progress('baseline', await timeStart(['-e', "require('http').createServer((q,s)=>s.end('ok')).listen(process.env.PORT)"], {})));
      fastify.push(progress('bare Fastify', await timeStart(['-e', BARE_FASTIFY], {})));
      floor.push(
        progress(
          'bare Fastify + PGlite open',
          await timeStart(['--input-type=module', '-e', BARE_FASTIFY_PGLITE], { PGLITE_DIR: join(scratch, `${runs[0]!.name}-existing`, 'db') }),
        ),
      );
      const image = newestImage(cacheDir ?? join(process.cwd(), 'node_modules', '.cache', 'cutdesk'));
      if (image)
        freshFloor.push(
          progress(
            'bare Fastify + PGlite from the image',
            await timeStart(['--input-type=module', '-e', BARE_FASTIFY_PGLITE], {
              PGLITE_IMAGE: image,
              PGLITE_DIR: join(scratch, `floor-fresh-${i}`),
              IMAGE_MODULE: join(process.cwd(), 'server', 'db', 'image.ts'),
            }),
          ),
        );
      for (const tree of runs) {
        touch();
        tree.fresh.push(progress(`${tree.name} fresh`, await timeStart(['scripts/start.ts'], serverEnv(join(scratch, `${tree.name}-fresh-${i}`)), tree.dir)));
        touch();
        tree.existing.push(
          progress(`${tree.name} existing`, await timeStart(['scripts/start.ts'], serverEnv(join(scratch, `${tree.name}-existing`)), tree.dir)),
        );
        if (databases)
          tree.existingPostgres.push(progress(`${tree.name} existing, PostgreSQL`, await timeStart(['scripts/start.ts'], postgresEnv(tree), tree.dir)));
        if (process.env.STARTUP_NO_IMAGE !== 'off') {
          touch();
          const env = serverEnv(join(scratch, `${tree.name}-fresh-no-image-${i}`), { CUTDESK_CACHE_DIR: join(scratch, `${tree.name}-cache-${i}`) });
          tree.freshNoImage.push(progress(`${tree.name} fresh, no image`, await timeStart(['scripts/start.ts'], env, tree.dir)));
        }
      }
    }
  } finally {
    await databases?.drop();
    await rm(scratch, { recursive: true, force: true });
    if (web.ours) await rm(web.dir, { recursive: true, force: true });
  }
  const b = stats(baseline);
  const f = stats(fastify);
  const round1 = (value: number) => Math.round(value * 10) / 10;
  const ratio = (s: { median: number }) => round1(s.median / b.median);
  const cpuRatio = (s: { mainThreadCpuMs: { median: number } | null }) =>
    s.mainThreadCpuMs && b.mainThreadCpuMs ? round1(s.mainThreadCpuMs.median / b.mainThreadCpuMs.median) : null;
  /** Each round's time over the same round's bare Fastify start: min / median / max. */
  const vsFastify = (kindRuns: Run[]) => {
    const ratios = kindRuns.map((run, i) => run.ms / fastify[i]!.ms).sort((x, y) => x - y);
    return { min: round1(ratios[0]!), median: round1(ratios[Math.floor(ratios.length / 2)]!), max: round1(ratios.at(-1)!) };
  };
  const pgliteFloor = { ...stats(floor), vsBareFastify: vsFastify(floor) };
  const figures: Record<string, unknown> = {
    runs: RUNS,
    webDir: web.dir,
    baselineBareFastifyMs: f,
    baselineBareNodeMs: b,
    bareFastifyWithPgliteOpen: pgliteFloor,
    ...(freshFloor.length ? { bareFastifyWithPgliteFromImage: { ...stats(freshFloor), vsBareFastify: vsFastify(freshFloor) } } : {}),
  };
  for (const tree of runs) {
    const treeFigures: Record<string, unknown> = {};
    for (const kind of kinds) {
      if (!tree[kind].length) continue;
      const s = stats(tree[kind]);
      treeFigures[kind] = { ...s, vsBareFastify: vsFastify(tree[kind]), medianVsBareNode: ratio(s), mainThreadCpuVsBareNode: cpuRatio(s) };
    }
    if (runs.length === 1) Object.assign(figures, treeFigures);
    else figures[tree.name] = { dir: tree.dir, ...treeFigures };
  }
  return figures;
}

/** The database image most recently made in `cacheDir` (server/db/image.ts names them), or null. */
function newestImage(cacheDir: string): string | null {
  if (!existsSync(cacheDir)) return null;
  const images = readdirSync(cacheDir)
    .filter((name) => name.startsWith('pglite-image-') && name.endsWith('.tar.gz'))
    .map((name) => join(cacheDir, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  return images[0] ?? null;
}

/** A database per tree on the PostgreSQL server at POSTGRES, made empty now and dropped after. */
async function postgresDatabases(names: string[]): Promise<{ url(name: string): string; drop(): Promise<void> }> {
  const { default: pg } = await import('pg');
  const nameOf = (tree: string) => `cutdesk_startup_bench_${process.pid}_${tree.replace(/[^a-z0-9]/gi, '_').toLowerCase()}`;
  const admin = new pg.Client({ connectionString: POSTGRES });
  await admin.connect();
  try {
    for (const tree of names) await admin.query(`create database ${nameOf(tree)}`);
  } finally {
    await admin.end();
  }
  return {
    url(tree) {
      const url = new URL(POSTGRES);
      url.pathname = `/${nameOf(tree)}`;
      return url.href;
    },
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES });
      await client.connect();
      try {
        for (const tree of names) await client.query(`drop database if exists ${nameOf(tree)} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
