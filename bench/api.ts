/**
 * bench/api: the staff dashboard with 100,000 projects. Its first page sorted by timer (what the
 * dashboard opens on) at 10 and 50 connections, a deep page by offset and by keyset cursor, and
 * GET /health (one `select 1`, no auth) in the same run as the floor a request can cost; beside
 * them the service's own time for the same page (dashboardPage, called directly, never from
 * memory). The route answers an unchanged board's pages from memory (server/services/board-pages.ts),
 * so the first page is also loaded while a project changes every 100 ms and without pause. The load comes
 * from autocannon in a separate process (issue 14), so its parsing does not share the server's
 * event loop. Uses the local PostgreSQL server when BENCH_DATABASE_URL is set (default
 * postgres://postgres@127.0.0.1:5432/postgres), else PGlite.
 * - BENCH_POOL_SIZES=2,5,10,20: also measure the first page at 10 and 50 connections with each
 *   PostgreSQL pool size (the pool's `max` is changed on the running server between rounds);
 * - BENCH_CPU_PROFILE=file.cpuprofile: a CPU profile of the server's process during the first
 *   page's load at 10 connections (open it in Chrome DevTools or speedscope).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { US_FEDERAL_CALENDAR } from '../src/domain/holiday-calendar.ts';
import { slaSortKey } from '../src/domain/sla-timer.ts';
import type { ProjectStatus } from '../src/domain/project-status.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { connectDatabase, postgresPool, type Db } from '../server/db/connect.ts';
import { migrateToLatest } from '../server/migrations/index.ts';
import { seedDemo } from '../server/seed/demo.ts';
import { dashboardPage } from '../server/services/dashboard.ts';
import { autocannon } from './autocannon.ts';
import { spread } from './stats.ts';

const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 100_000);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 10;
const MANY_CONNECTIONS = 50;
/** Rounds of the interleaved kept-page section (BENCH_ROUNDS). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** What Chromium sends. */
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';
const STATUSES: ProjectStatus[] = ['WAITING_FOR_EDITOR', 'IN_EDITING', 'IN_REVIEW', 'PAUSED', 'APPROVED', 'ARCHIVED', 'HIDDEN'];

/** `count` projects of the demo organization over every status, the SLA keys as the service writes them. */
export async function seedProjects(db: Db, count = PROJECTS): Promise<void> {
  const organization = await db.selectFrom('organizations').select('id').executeTakeFirstOrThrow();
  const owner = await db.selectFrom('users').select('id').where('role', '=', 'OWNER').executeTakeFirstOrThrow();
  const now = Date.now();
  const batch = 2_000;
  for (let start = 0; start < count; start += batch) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + batch); i++) {
      const status = STATUSES[i % STATUSES.length]!;
      const latestSubmittedAt = new Date(now - ((i * 7919) % (30 * 86_400_000)));
      const pausedAt = status === 'IN_EDITING' || status === 'WAITING_FOR_EDITOR' ? null : new Date(latestSubmittedAt.getTime() + 3_600_000);
      const totalPausedMinutes = i % 90;
      const key = slaSortKey({ status, latestSubmittedAt, pausedAt, totalPausedMinutes }, new Date(now), US_FEDERAL_CALENDAR);
      rows.push({
        organizationId: organization.id,
        userId: owner.id,
        name: `Bench project ${i}`,
        status,
        latestSubmittedAt,
        pausedAt,
        totalPausedMinutes,
        slaDeadline: key.deadline,
        slaFrozen: key.frozen,
        editorId: null,
        deletedAt: null,
      });
    }
    await db
      .insertInto('projects')
      .values(rows as never)
      .execute();
  }
  await sql`analyze projects`.execute(db);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The dashboard's page as the service reads it (its queries and shaping), called directly. */
async function serviceMs(db: Db, start: number, runs = 30): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await dashboardPage(db, { active: true, sort: 'timer', order: 'asc', start, limit: 30 });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU time per answered request: this (the server's) process, and the PostgreSQL backends of its database. */
  serverCpuUs: number;
  postgresCpuUs: number | null;
  /** Bytes received per answer, its headers included. */
  bytes: number;
}

/**
 * CPU time (µs) so far of each PostgreSQL backend serving `database`, by pid (Linux /proc; null
 * elsewhere or on PGlite). Per backend, so a backend the pool closed meanwhile drops out of both
 * samples instead of making the difference negative.
 */
async function postgresCpuUs(db: Db, database: string | null): Promise<Map<number, number> | null> {
  if (!database || process.platform !== 'linux') return null;
  const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity where datname = ${database} and pid <> pg_backend_pid()`.execute(db);
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    cpu.set(pid, (Number(fields[11]) + Number(fields[12])) * 10_000); // USER_HZ is 100 on Linux
  }
  return cpu;
}

/** CPU (µs) the backends spent between two samples: those alive at the end, from 0 if they started meanwhile. */
function postgresCpuSpent(before: Map<number, number>, after: Map<number, number>): number {
  let spent = 0;
  for (const [pid, cpu] of after) spent += cpu - (before.get(pid) ?? 0);
  return spent;
}

/** The page at `url` under load from `connections` clients for DURATION_S, with the CPU it cost. */
async function load(url: string, headers: Record<string, string>, connections = CONNECTIONS): Promise<Load> {
  const cpuBefore = process.cpuUsage();
  const pgBefore = await postgresCpuUs(measured.db!, measured.database);
  const result = await autocannon(url, { connections, seconds: DURATION_S, headers });
  const cpu = process.cpuUsage(cpuBefore);
  const pgAfter = await postgresCpuUs(measured.db!, measured.database);
  const answered = Math.max(result.requests.total, 1);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    serverCpuUs: (cpu.user + cpu.system) / answered,
    bytes: result.throughput.total / answered,
    postgresCpuUs: pgBefore === null || pgAfter === null ? null : postgresCpuSpent(pgBefore, pgAfter) / answered,
  };
}

/** The database the load runs against (for its backends' CPU time). */
const measured: { db: Db | null; database: string | null } = { db: null, database: null };

function figures(http: Load) {
  return {
    'HTTP p50 ms': http.p50,
    'HTTP p99 ms': http.p99,
    'requests/s': Math.round(http.rps),
    'server CPU µs/request': Math.round(http.serverCpuUs),
    'bytes/answer': Math.round(http.bytes),
    'PostgreSQL CPU µs/request': http.postgresCpuUs === null ? 'n/a' : Math.round(http.postgresCpuUs),
    errors: http.errors,
  };
}

/** `run` while one project's name is rewritten every `pauseMs` (0: back to back), with the count of writes. */
async function whileWriting<T>(db: Db, pauseMs: number, run: () => Promise<T>): Promise<{ load: T; writes: number }> {
  let writing = true;
  let writes = 0;
  const { id } = await db.selectFrom('projects').select('id').orderBy('id').executeTakeFirstOrThrow();
  const writer = (async () => {
    while (writing) {
      await sql`update projects set name = ${`Bench project changed ${writes}`} where id = ${id}`.execute(db);
      writes++;
      if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  })();
  try {
    return { load: await run(), writes };
  } finally {
    writing = false;
    await writer;
  }
}

/** A CPU profile of this process (the server's) while `run` loads it, written to BENCH_CPU_PROFILE. */
async function profiled<T>(run: () => Promise<T>): Promise<T> {
  const file = process.env.BENCH_CPU_PROFILE;
  if (!file) return run();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await run();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(file, JSON.stringify(profile));
    session.disconnect();
    console.log(`  CPU profile of the first page's load: ${file}`);
  }
}

export async function benchApi(): Promise<Record<string, unknown>> {
  const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dataDir = await mkdtemp(join(tmpdir(), 'cutdesk-bench-api-'));
  const name = `cutdesk_bench_${randomBytes(4).toString('hex')}`;
  const admin = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: serverUrl, max: 1 }) }) });
  let databaseUrl: string | null = null;
  try {
    await sql`create database ${sql.id(name)}`.execute(admin);
    const target = new URL(serverUrl);
    target.pathname = `/${name}`;
    databaseUrl = target.toString();
  } catch {
    console.log('  (no PostgreSQL server: benchmarking on PGlite)');
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    SEED: 'none',
    LOG_LEVEL: 'silent',
    WEB_DIR: join(dataDir, 'none'),
    // Load shedding (503 above this event-loop delay) would cut the very peak being measured.
    MAX_EVENT_LOOP_DELAY_MS: '60000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const db = await connectDatabase({ databaseUrl: config.databaseUrl, dataDir });
  measured.db = db;
  measured.database = databaseUrl ? name : null;
  try {
    await migrateToLatest(db);
    await seedDemo(db, 'bench-password');
    const started = performance.now();
    await seedProjects(db);
    console.log(`  seeded ${PROJECTS} projects in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const app = await buildApp({ config, db });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/v1`;
    const login = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@demo.cutdesk.test', password: 'bench-password' }),
    });
    const { token } = (await login.json()) as { token: string };
    const headers = { authorization: `Bearer ${token}` };
    const pool = postgresPool(db);
    const results: Record<string, unknown> = {
      database: databaseUrl ? 'PostgreSQL' : 'PGlite',
      projects: PROJECTS,
      seconds: DURATION_S,
      'pool size': pool?.options.max ?? 1,
    };
    const firstUrl = `${base}/projects?active=true&sort=timer&order=asc&start=0&limit=30`;
    // Warm-up: the first requests compile the route's code and fill the pool.
    await load(firstUrl, headers).catch(() => undefined);
    // Issue 34's goal for a kept page, interleaved with its baseline: each round loads /health and
    // then the page at 10 and at 50 connections as a browser asks for it, and gives the page's
    // requests/s over that round's /health (the machine is shared: only a ratio within a round means anything).
    const browserHeaders = { ...headers, 'accept-encoding': BROWSER_ENCODINGS };
    const rounds: { ratio10: number; ratio50: number; p99at50: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const roundHealth = await load(`${base}/health`, { 'accept-encoding': BROWSER_ENCODINGS });
      const at10 = await load(firstUrl, browserHeaders);
      const at50 = await load(firstUrl, browserHeaders, MANY_CONNECTIONS);
      rounds.push({ ratio10: at10.rps / Math.max(roundHealth.rps, 1), ratio50: at50.rps / Math.max(roundHealth.rps, 1), p99at50: at50.p99 });
    }
    results[`kept first page ÷ /health, ${ROUNDS} interleaved rounds (min / median / max)`] = {
      [`requests/s at ${CONNECTIONS} connections ÷ /health`]: spread(rounds.map((round) => round.ratio10)).join(' / '),
      [`requests/s at ${MANY_CONNECTIONS} connections ÷ /health`]: spread(rounds.map((round) => round.ratio50)).join(' / '),
      [`HTTP p99 ms at ${MANY_CONNECTIONS} connections`]: spread(rounds.map((round) => round.p99at50)).join(' / '),
    };
    const health = await load(`${base}/health`, {});
    results[`GET /health, ${CONNECTIONS} connections`] = figures(health);
    const service = await serviceMs(db, 0);
    const first = await profiled(() => load(firstUrl, headers));
    const firstMany = await load(firstUrl, headers, MANY_CONNECTIONS);
    results[`first page (start=0), ${CONNECTIONS} connections`] = {
      'service p50 ms': service.p50.toFixed(1),
      'service p99 ms': service.p99.toFixed(1),
      ...figures(first),
      'requests/s: this / health': (first.rps / Math.max(health.rps, 1)).toFixed(2),
      'HTTP p50 / service p50': (first.p50 / Math.max(service.p50, 0.01)).toFixed(2),
    };
    results[`first page (start=0), ${MANY_CONNECTIONS} connections`] = figures(firstMany);
    // As a browser asks for it (issue 34): compressed, which a kept page is once per encoding.
    const browser = await load(firstUrl, { ...headers, 'accept-encoding': BROWSER_ENCODINGS });
    results[`first page (start=0), ${CONNECTIONS} connections, Accept-Encoding as a browser's`] = {
      ...figures(browser),
      'requests/s: this / health': (browser.rps / Math.max(health.rps, 1)).toFixed(2),
    };
    const browserMany = await load(firstUrl, { ...headers, 'accept-encoding': BROWSER_ENCODINGS }, MANY_CONNECTIONS);
    results[`first page (start=0), ${MANY_CONNECTIONS} connections, Accept-Encoding as a browser's`] = {
      ...figures(browserMany),
      'requests/s: this / health': (browserMany.rps / Math.max(health.rps, 1)).toFixed(2),
    };
    // The board's pages are answered from memory while it is unchanged (server/services/board-pages.ts):
    // the same first page while staff change a project every 100 ms, and while writes never stop
    // (each request then reads the page again: the cost without memory, plus the version read).
    for (const [label, pauseMs] of [
      ['a project changed every 100 ms', 100],
      ['a project changed without pause', 0],
    ] as const) {
      const changing = await whileWriting(db, pauseMs, () => load(firstUrl, headers));
      results[`first page (start=0), ${CONNECTIONS} connections, ${label}`] = {
        ...figures(changing.load),
        'board changes/s': Math.round(changing.writes / DURATION_S),
        'requests/s: this / first page unchanged': (changing.load.rps / Math.max(first.rps, 1)).toFixed(2),
      };
    }
    const deep = Math.floor(PROJECTS / 2);
    const deepService = await serviceMs(db, deep, 10);
    const offsetDeep = await load(`${base}/projects?active=true&sort=timer&order=asc&start=${deep}&limit=30`, headers);
    results[`deep page (start=${deep}), ${CONNECTIONS} connections`] = {
      'service p50 ms': deepService.p50.toFixed(1),
      'service p99 ms': deepService.p99.toFixed(1),
      ...figures(offsetDeep),
    };
    // Issue 14, keyset paging: the same deep page reached with the cursor of the page before it.
    const before = await fetch(`${base}/projects?active=true&sort=timer&order=asc&start=${deep - 30}&limit=30`, { headers });
    const { nextCursor } = ((await before.json()) as { data: { nextCursor: string } }).data;
    const keyset = await load(`${base}/projects?active=true&sort=timer&order=asc&after=${nextCursor}&limit=30`, headers);
    results[`deep page (after the cursor of row ${deep}), ${CONNECTIONS} connections`] = {
      ...figures(keyset),
      'p50 / first page p50': (keyset.p50 / Math.max(first.p50, 0.01)).toFixed(2),
      'requests/s: first page / this': (first.rps / Math.max(keyset.rps, 1)).toFixed(2),
      'requests/s: this / the same page by start': (keyset.rps / Math.max(offsetDeep.rps, 1)).toFixed(2),
    };
    // Pool size against throughput and tail latency (PostgreSQL only), the first page again.
    const sizes = (process.env.BENCH_POOL_SIZES ?? '').split(',').filter(Boolean).map(Number);
    if (pool && sizes.length) {
      const configured = pool.options.max;
      const rows: Record<string, unknown> = {};
      for (const size of sizes) {
        pool.options.max = size;
        const few = await load(firstUrl, headers);
        const many = await load(firstUrl, headers, MANY_CONNECTIONS);
        rows[`pool ${size}`] = {
          [`${CONNECTIONS} conn req/s`]: Math.round(few.rps),
          [`${CONNECTIONS} conn p99 ms`]: few.p99,
          [`${MANY_CONNECTIONS} conn req/s`]: Math.round(many.rps),
          [`${MANY_CONNECTIONS} conn p50 ms`]: many.p50,
          [`${MANY_CONNECTIONS} conn p99 ms`]: many.p99,
          [`${MANY_CONNECTIONS} conn PostgreSQL CPU µs/request`]: many.postgresCpuUs === null ? 'n/a' : Math.round(many.postgresCpuUs),
          errors: few.errors + many.errors,
        };
      }
      pool.options.max = configured;
      results['first page by pool size'] = rows;
    }
    await app.close();
    return results;
  } finally {
    await db.destroy();
    if (databaseUrl) await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin);
    await admin.destroy();
    await rm(dataDir, { recursive: true, force: true });
  }
}
