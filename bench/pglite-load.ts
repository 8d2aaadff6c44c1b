/**
 * bench/pglite-load (issue 14, "Embedded PGlite"): the staff dashboard's first page on embedded
 * PGlite under 10, 50, 200 and 400 connections, with PGlite in the server's own thread (as tests and
 * tools run it) and on a thread of its own (as `npm start` runs it, server/db/pglite-thread.ts),
 * the two alternating round by round in one run. Each server runs in this process on a copy of
 * the same data directory (demo data and BENCH_PGLITE_PROJECTS projects); the load comes from
 * autocannon in a process of its own. 503s are the bounded queue refusing (pglite-bridge.ts).
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { connectDatabase } from '../server/db/connect.ts';
import { migrateToLatest } from '../server/migrations/index.ts';
import { seedDemo } from '../server/seed/demo.ts';
import { seedProjects } from './api.ts';
import { autocannon } from './autocannon.ts';

const PROJECTS = Number(process.env.BENCH_PGLITE_PROJECTS ?? 5_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = [10, 50, 200, 400];
const MODES = { 'server thread': false, 'own thread': true } as const;
type Mode = keyof typeof MODES;

interface Figures {
  /** Answered with 2xx, per second (a refusal is answered too, at once, and is not counted here). */
  rps: number;
  p50: number;
  p99: number;
  refused: number;
}

async function measure(base: string, thread: boolean): Promise<Record<number, Figures>> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cutdesk-bench-pglite-run-'));
  await cp(base, dataDir, { recursive: true });
  const config = loadConfig({
    DATA_DIR: dataDir,
    SEED: 'none',
    LOG_LEVEL: 'silent',
    WEB_DIR: join(dataDir, 'none'),
    MAX_EVENT_LOOP_DELAY_MS: '60000',
    RATE_LIMIT_PER_EMAIL: '100000',
    RATE_LIMIT_PER_IP: '1000000',
  });
  const db = await connectDatabase({ databaseUrl: null, dataDir, thread });
  const app = await buildApp({ config, db });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const api = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/v1`;
    const login = await fetch(`${api}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@demo.cutdesk.test', password: 'bench-password' }),
    });
    const { token } = (await login.json()) as { token: string };
    const url = `${api}/projects?active=true&sort=timer&order=asc&start=0&limit=30`;
    const headers = { authorization: `Bearer ${token}` };
    await autocannon(url, { connections: 10, seconds: 2, headers }); // warm-up: the route's code compiled
    const figures: Record<number, Figures> = {};
    for (const connections of CONNECTIONS) {
      const result = await autocannon(url, { connections, seconds: SECONDS, headers });
      figures[connections] = {
        rps: (result.requests.total - result.non2xx) / SECONDS,
        p50: result.latency.p50,
        p99: result.latency.p99,
        refused: result.non2xx,
      };
    }
    return figures;
  } finally {
    await app.close();
    await db.destroy();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

export async function benchPgliteLoad(): Promise<Record<string, unknown>> {
  const base = await mkdtemp(join(tmpdir(), 'cutdesk-bench-pglite-'));
  try {
    const db = await connectDatabase({ databaseUrl: null, dataDir: base });
    await migrateToLatest(db);
    await seedDemo(db, 'bench-password');
    await seedProjects(db, PROJECTS);
    await db.destroy();
    const runs: Record<Mode, Record<number, Figures>[]> = { 'server thread': [], 'own thread': [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of Object.keys(MODES) as Mode[]) runs[mode].push(await measure(base, MODES[mode]));
    }
    const results: Record<string, unknown> = { projects: PROJECTS, seconds: SECONDS, rounds: ROUNDS };
    for (const connections of CONNECTIONS) {
      const of = (mode: Mode, key: keyof Figures) => median(runs[mode].map((run) => run[connections]![key]));
      const row: Record<string, unknown> = {};
      for (const mode of Object.keys(MODES) as Mode[]) {
        row[mode] =
          `${Math.round(of(mode, 'rps'))} pages/s, p50 ${of(mode, 'p50')} ms, p99 ${of(mode, 'p99')} ms (all answers), refused ${of(mode, 'refused')}`;
      }
      row['pages/s, own ÷ server thread'] = (of('own thread', 'rps') / Math.max(of('server thread', 'rps'), 1)).toFixed(2);
      row['p99, own ÷ server thread'] = (of('own thread', 'p99') / Math.max(of('server thread', 'p99'), 1)).toFixed(2);
      results[`${connections} connections (median of ${ROUNDS})`] = row;
    }
    return results;
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
