/**
 * bench/edges: what the app's edges (issue 9) cost per request. Two servers with the same
 * routes, one bare and one with the security headers (helmet + CSP), load shedding
 * (under-pressure), the bad-input guards (JSON parser check, NUL in URLs) and a per-route rate
 * limit counted in the database (PGlite, in memory); autocannon measures each route on both,
 * alternately, and prints requests per second and the ratio.
 *   node bench/edges.ts            (BENCH_SECONDS=5 per measurement, 3 rounds)
 */
import autocannon from 'autocannon';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { loadConfig } from '../server/config.ts';
import { connectDatabase } from '../server/db/connect.ts';
import { migrateToLatest } from '../server/migrations/index.ts';
import { registerBadInputGuards } from '../server/plugins/bad-input.ts';
import { dbPlugin } from '../server/plugins/db.ts';
import { metricsPlugin } from '../server/plugins/metrics.ts';
import { registerRequestId } from '../server/request-id.ts';
import { registerLoadShedding } from '../server/plugins/load-shedding.ts';
import { registerSecurityHeaders } from '../server/plugins/security-headers.ts';
import { RateLimiter } from '../server/services/rate-limiter.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (process.argv.includes('--help')) {
  console.log('node bench/edges.ts — requests/s of a bare server vs one with the issue-9 edges (BENCH_SECONDS, BENCH_ROUNDS)');
  process.exit(0);
}

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BODY = JSON.stringify({
  name: 'A project',
  audience: 'Investors',
  goal: 'Raise the round',
  finalVideoLength: '1-2 minutes',
  brief: 'A short film about the product.',
});

async function server(withEdges: boolean, dataDir: string): Promise<{ app: FastifyInstance; url: string }> {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMIT_PER_IP: '1000000000' });
  const app = Fastify({ logger: false });
  const db = await connectDatabase({ databaseUrl: null, dataDir, inMemory: true });
  await migrateToLatest(db);
  app.addHook('onClose', async () => db.destroy());
  if (withEdges) {
    const limiter = new RateLimiter(db, config.rateLimit.windowMs);
    await registerSecurityHeaders(app, config);
    await registerLoadShedding(app);
    await app.register(rateLimit, { global: false, store: limiter.pluginStore(app.log), skipOnError: true });
  }
  await app.register(
    async (api) => {
      if (withEdges) registerBadInputGuards(api);
      api.get('/health', async () => ({ status: 'ok' }));
      // Like the real /health: one query, the least any API route does.
      api.get('/db', async () => {
        await sql`select 1`.execute(db);
        return { status: 'ok' };
      });
      api.post('/echo', async (request) => ({ received: Object.keys(request.body as object).length }));
      api.get('/limited', withEdges ? { config: { rateLimit: { max: 1_000_000_000, timeWindow: 60_000 } } } : {}, async () => ({ ok: true }));
    },
    { prefix: '/api/v1' },
  );
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url };
}

async function rps(url: string, path: string, post: boolean): Promise<number> {
  const result = await autocannon({
    url: `${url}${path}`,
    connections: 10,
    duration: SECONDS,
    ...(post ? { method: 'POST' as const, body: BODY, headers: { 'content-type': 'application/json' } } : {}),
  });
  return result.requests.average;
}

const dataDir = await mkdtemp(join(tmpdir(), 'cutdesk-bench-edges-'));
const bare = await server(false, dataDir);
const edged = await server(true, dataDir);
const cases: [string, string, boolean][] = [
  ['GET, no work (headers, shedding, URL check)', '/api/v1/health', false],
  ['GET with one query (like /api/v1/health)', '/api/v1/db', false],
  ['POST JSON body (parser check)', '/api/v1/echo', true],
  ['GET rate-limited (one counter upsert)', '/api/v1/limited', false],
];
console.log(`bench/edges: ${ROUNDS} rounds of ${SECONDS} s per server and route, 10 connections`);
for (const [label, path, post] of cases) {
  const without: number[] = [];
  const withEdges: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    without.push(await rps(bare.url, path, post));
    withEdges.push(await rps(edged.url, path, post));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const a = median(without);
  const b = median(withEdges);
  console.log(`${label.padEnd(46)} bare ${a.toFixed(0).padStart(7)} req/s   with edges ${b.toFixed(0).padStart(7)} req/s   ratio ${(b / a).toFixed(3)}`);
}
await bare.app.close();
await edged.app.close();

/**
 * Issue 15: what measuring costs. The same route on a server without and with the metrics
 * plugin's onResponse hook (a counter and a histogram per request) and the X-Request-Id header.
 */
async function measured(withMetrics: boolean): Promise<{ app: FastifyInstance; url: string }> {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const db = await connectDatabase({ databaseUrl: null, dataDir, inMemory: true });
  const app = Fastify({ logger: false });
  app.addHook('onClose', async () => db.destroy());
  await app.register(dbPlugin, { config, db });
  if (withMetrics) {
    await app.register(metricsPlugin, { config });
    registerRequestId(app);
  }
  app.get('/api/v1/projects/:id', async () => ({ status: 'ok' }));
  return { app, url: await app.listen({ host: '127.0.0.1', port: 0 }) };
}
const unmeasured = await measured(false);
const metered = await measured(true);
const without: number[] = [];
const withMetrics: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  without.push(await rps(unmeasured.url, '/api/v1/projects/42', false));
  withMetrics.push(await rps(metered.url, '/api/v1/projects/42', false));
}
const middle = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(
  `${'GET, no work: metrics hook + request id'.padEnd(46)} bare ${middle(without).toFixed(0).padStart(7)} req/s   with metrics ${middle(withMetrics).toFixed(0).padStart(7)} req/s   ratio ${(middle(withMetrics) / middle(without)).toFixed(3)}`,
);
await unmeasured.app.close();
await metered.app.close();
await rm(dataDir, { recursive: true, force: true });
