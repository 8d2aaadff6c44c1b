/**
 * bench/api: the staff dashboard with 100,000 projects. First page and a deep page sorted
 * by timer, under concurrent load (autocannon), beside the raw SQL time of the same query
 * measured in the same run. Uses the local PostgreSQL server when BENCH_DATABASE_URL is set
 * (default postgres://postgres@127.0.0.1:5432/postgres), else PGlite.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { slaSortKey } from '../src/domain/sla-timer.ts';
import type { ProjectStatus } from '../src/domain/project-status.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { connectDatabase, type Db } from '../server/db/connect.ts';
import { migrateToLatest } from '../server/migrations/index.ts';
import { pageIdsByTimer } from '../server/repositories/dashboard.ts';
import { seedDemo } from '../server/seed/demo.ts';

const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 100_000);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 10;
const STATUSES: ProjectStatus[] = ['WAITING_FOR_EDITOR', 'IN_EDITING', 'IN_REVIEW', 'PAUSED', 'APPROVED', 'ARCHIVED', 'HIDDEN'];

async function seedProjects(db: Db): Promise<void> {
  const organization = await db.selectFrom('organizations').select('id').executeTakeFirstOrThrow();
  const owner = await db.selectFrom('users').select('id').where('role', '=', 'OWNER').executeTakeFirstOrThrow();
  const now = Date.now();
  const batch = 2_000;
  for (let start = 0; start < PROJECTS; start += batch) {
    const rows = [];
    for (let i = start; i < Math.min(PROJECTS, start + batch); i++) {
      const status = STATUSES[i % STATUSES.length]!;
      const latestSubmittedAt = new Date(now - ((i * 7919) % (30 * 86_400_000)));
      const pausedAt = status === 'IN_EDITING' || status === 'WAITING_FOR_EDITOR' ? null : new Date(latestSubmittedAt.getTime() + 3_600_000);
      const totalPausedMinutes = i % 90;
      const key = slaSortKey({ status, latestSubmittedAt, pausedAt, totalPausedMinutes }, new Date(now));
      rows.push({ organizationId: organization.id, userId: owner.id, name: `Bench project ${i}`, status, latestSubmittedAt, pausedAt, totalPausedMinutes, slaDeadline: key.deadline, slaFrozen: key.frozen, editorId: null, deletedAt: null });
    }
    await db.insertInto('projects').values(rows as never).execute();
  }
  await sql`analyze projects`.execute(db);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The dashboard's own timer query, timed directly against the database. */
async function rawQueryMs(db: Db, offset: number, runs = 30): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await pageIdsByTimer(db, ['WAITING_FOR_EDITOR', 'IN_EDITING', 'IN_REVIEW', 'PAUSED', 'APPROVED', 'DELETED'], false, offset, 30);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function load(url: string, headers: Record<string, string>) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
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
  const config = loadConfig({ DATA_DIR: dataDir, SEED: 'none', LOG_LEVEL: 'silent', WEB_DIR: join(dataDir, 'none'), ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  const db = await connectDatabase({ databaseUrl: config.databaseUrl, dataDir });
  try {
    await migrateToLatest(db);
    await seedDemo(db, 'bench-password');
    let started = performance.now();
    await seedProjects(db);
    console.log(`  seeded ${PROJECTS} projects in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const app = await buildApp({ config, db });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/v1`;
    const login = await fetch(`${base}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@demo.cutdesk.test', password: 'bench-password' }) });
    const { token } = (await login.json()) as { token: string };
    const headers = { authorization: `Bearer ${token}` };
    const results: Record<string, unknown> = { database: databaseUrl ? 'PostgreSQL' : 'PGlite', projects: PROJECTS, connections: CONNECTIONS, seconds: DURATION_S };
    for (const [label, offset] of [['first page', 0], ['deep page', Math.floor(PROJECTS / 2)]] as const) {
      const raw = await rawQueryMs(db, offset);
      started = performance.now();
      const http = await load(`${base}/projects?active=true&sort=timer&order=asc&start=${offset}&limit=30`, headers);
      results[`${label} (start=${offset})`] = {
        'raw SQL p50 ms': raw.p50.toFixed(1),
        'raw SQL p99 ms': raw.p99.toFixed(1),
        'HTTP p50 ms': http.p50,
        'HTTP p99 ms': http.p99,
        'requests/s': Math.round(http.rps),
        'HTTP p50 / SQL p50': (http.p50 / Math.max(raw.p50, 0.01)).toFixed(2),
        errors: http.errors,
      };
    }
    // Issue 14, keyset paging: the same deep page reached with the cursor of the page before it.
    const deep = Math.floor(PROJECTS / 2);
    const before = await fetch(`${base}/projects?active=true&sort=timer&order=asc&start=${deep - 30}&limit=30`, { headers });
    const { nextCursor } = ((await before.json()) as { data: { nextCursor: string } }).data;
    const keyset = await load(`${base}/projects?active=true&sort=timer&order=asc&after=${nextCursor}&limit=30`, headers);
    const first = results['first page (start=0)'] as { 'HTTP p50 ms': number; 'requests/s': number };
    const offsetDeep = results[`deep page (start=${deep})`] as { 'HTTP p50 ms': number; 'requests/s': number };
    results[`deep page (after the cursor of row ${deep})`] = {
      'HTTP p50 ms': keyset.p50,
      'HTTP p99 ms': keyset.p99,
      'requests/s': Math.round(keyset.rps),
      'p50 / first page p50': (keyset.p50 / Math.max(first['HTTP p50 ms'], 0.01)).toFixed(2),
      'requests/s: first page / this': (first['requests/s'] / Math.max(keyset.rps, 1)).toFixed(2),
      'requests/s: this / the same page by start': (keyset.rps / Math.max(offsetDeep['requests/s'], 1)).toFixed(2),
      errors: keyset.errors,
    };
    await app.close();
    return results;
  } finally {
    await db.destroy();
    if (databaseUrl) await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin);
    await admin.destroy();
    await rm(dataDir, { recursive: true, force: true });
  }
}
