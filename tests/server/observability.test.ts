import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { ConfigError, loadConfig } from '../../server/config.ts';
import { connectDatabase, type Db } from '../../server/db/connect.ts';
import { startBackgroundJobs } from '../../server/jobs.ts';
import { prettyLine } from '../../server/log-format.ts';
import { ALL_KINDS } from '../../server/media/pipeline.ts';
import { jobQueue } from '../../server/repositories/media-jobs.ts';
import { startRunner } from '../../server/media/runner.ts';
import { listenStore } from '../../server/storage/store-listener.ts';
import { migrateToLatest } from '../../server/migrations/index.ts';
import { DATABASES, startTestServer, type TestServer } from './harness.ts';

/**
 * Issue 15, "Seeing it run": GET /metrics (Prometheus text), GET /api/v1/ready, and request ids
 * in the logs and the X-Request-Id header.
 */

const TOKEN = 'metrics-token-0123456789-abcdefghij';
const PUBLIC_CLIENT = '203.0.113.9';

const metricsOf = async (app: FastifyInstance, options: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
  app.inject({ method: 'GET', url: '/metrics', ...options });

describe.each(DATABASES)('metrics and readiness on $name', ({ url }) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(url, { seed: false });
  });
  afterAll(async () => server?.close());

  it('from loopback: Prometheus text with every family, requests counted by route pattern and status, the scrape itself not', async () => {
    await server.app.inject({ method: 'GET', url: '/api/v1/health' });
    await server.app.inject({ method: 'GET', url: '/api/v1/projects/4711' });
    await metricsOf(server.app);
    await jobQueue(server.db).enqueue([{ kind: 'test.metrics' }, { kind: 'test.metrics' }]);
    const response = await metricsOf(server.app);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    for (const name of [
      'cutdesk_http_requests_total',
      'cutdesk_http_request_duration_seconds',
      'cutdesk_media_jobs',
      'cutdesk_periodic_jobs_running',
      'cutdesk_periodic_job_runs_total',
      'cutdesk_upload_registrations_total',
      'cutdesk_upload_registered_bytes_total',
      'cutdesk_sse_connections',
      'cutdesk_remembered_rows_listening',
      'cutdesk_remembered_users',
      'cutdesk_db_connections_max',
      'process_cpu_seconds_total',
    ]) {
      expect(text, name).toContain(`# TYPE ${name} `);
    }
    expect(text).toContain('cutdesk_http_requests_total{method="GET",route="/api/v1/health",status_code="200"} 1');
    // The pattern, never the id the client sent.
    expect(text).toContain('cutdesk_http_requests_total{method="GET",route="/api/v1/projects/:id",status_code="401"} 1');
    // (No label names the id; numbers elsewhere, memory sizes, may contain its digits by chance.)
    expect(text).not.toMatch(/\{[^}]*4711[^}]*\}/);
    expect(text).toMatch(/cutdesk_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/v1\/health",status_code="200"\} \d/);
    expect(text).not.toContain('route="/metrics"');
    expect(text).toContain('cutdesk_media_jobs{kind="test.metrics",status="queued"} 2');
    expect(text).toContain('cutdesk_sse_connections 0');
    // Issue 34: the changes listener is up, so sessions are answered from memory (none signed in here).
    expect(text).toContain('cutdesk_remembered_rows_listening 1');
    expect(text).toContain('cutdesk_remembered_users 0');
    expect(text).toContain(`cutdesk_db_connections_max ${url ? 10 : 1}`);
    if (url) expect(text).toMatch(/cutdesk_db_connections\{state="idle"\} \d/);
  });

  it('reports every media job kind and state, 0 when none, and counts the jobs this instance’s worker ran by outcome', async () => {
    const before = (await metricsOf(server.app)).body;
    // An empty queue is a figure (0), not a missing series: alerts on the depth keep working.
    for (const kind of ALL_KINDS)
      for (const status of ['queued', 'running', 'failed']) expect(before).toContain(`cutdesk_media_jobs{kind="${kind}",status="${status}"} 0`);

    await jobQueue(server.db).enqueue([{ kind: 'test.runs-ok' }, { kind: 'test.runs-ok' }, { kind: 'test.runs-bad' }]);
    const runner = startRunner({
      db: server.db,
      handlers: {
        'test.runs-ok': async () => undefined,
        'test.runs-bad': async () => {
          throw Object.assign(new Error('not a video'), { permanent: true });
        },
      },
      pollMs: 20,
      onFinished: (kind, outcome, seconds) => server.app.metrics.mediaJobFinished(kind, outcome, seconds),
    });
    await runner.idle();
    await runner.stop();
    const text = (await metricsOf(server.app)).body;
    expect(text).toContain('cutdesk_media_job_runs_total{kind="test.runs-ok",outcome="done"} 2');
    expect(text).toContain('cutdesk_media_job_runs_total{kind="test.runs-bad",outcome="failed"} 1');
    expect(text).toContain('cutdesk_media_job_duration_seconds_count{kind="test.runs-ok"} 2');
    // The failed one is in the cluster-wide figures too.
    expect(text).toContain('cutdesk_media_jobs{kind="test.runs-bad",status="failed"} 1');
  });

  it('is refused to other addresses: 404 without METRICS_TOKEN, a public client behind a proxy is not loopback', async () => {
    expect((await metricsOf(server.app, { remoteAddress: PUBLIC_CLIENT })).statusCode).toBe(404);
    expect((await metricsOf(server.app, { remoteAddress: '::ffff:10.0.0.7' })).statusCode).toBe(404);
    // A proxy on the same machine, TRUST_PROXY unset: the client it forwards is unknown, so refused.
    expect((await metricsOf(server.app, { headers: { 'x-forwarded-for': PUBLIC_CLIENT } })).statusCode).toBe(404);
    expect((await metricsOf(server.app, { headers: { forwarded: `for=${PUBLIC_CLIENT}` } })).statusCode).toBe(404);
    expect((await metricsOf(server.app, { remoteAddress: '::1' })).statusCode).toBe(200);
  });

  it('/ready: 503 "starting" until the object store connected (migrations and database checked)', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/v1/ready' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'starting', checks: { migrations: true, database: true, storage: false } });
    // Liveness is another question: the process and its database are fine.
    expect((await server.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
  });
});

/** `promtool check metrics` on a scrape: its exit code and what it printed. */
function promtoolCheck(scrape: string): { code: number | null; output: string } {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: scrape, encoding: 'utf8' });
  if (run.error) throw run.error;
  return { code: run.status, output: `${run.stdout}${run.stderr}`.trim() };
}

describe.each(DATABASES)('readiness of a listening server on $name', ({ url }) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(url, { seed: false, storage: true });
    // The store's own port too (S3_PORT), as `npm start` runs it: its counter is in the scrape.
    await listenStore(server.app, { host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => server?.close());

  it('is ready once the store connected, counts a periodic job run, and answers 503 "stopping" from the start of shutdown', async () => {
    const ready = await server.app.inject({ method: 'GET', url: '/api/v1/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { migrations: true, database: true, storage: true } });
    // The over-the-network request (not inject) gets its answer and a request id too.
    const live = await fetch(`${server.baseUrl}/api/v1/ready`);
    expect(live.status).toBe(200);
    expect(live.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    // The jobs run once at start (review auto-complete) and are counted by outcome.
    const stopJobs = startBackgroundJobs(server.app);
    await stopJobs();
    expect((await metricsOf(server.app)).body).toContain('cutdesk_periodic_job_runs_total{job="review-auto-complete",outcome="ok"} 1');

    // Prometheus' own lint (Debian's `prometheus` package, which .ci/run installs) passes on a
    // scrape with every family of a listening server: a counter's name ends in _total, nothing else's does.
    const scrape = await (await fetch(`${server.baseUrl}/metrics`)).text();
    expect(scrape).toMatch(/^cutdesk_store_listener_received_bytes_total \d+/m);
    expect(promtoolCheck(scrape)).toEqual({ code: 0, output: '' });

    server.app.readiness.stop();
    const stopping = await server.app.inject({ method: 'GET', url: '/api/v1/ready' });
    expect(stopping.statusCode).toBe(503);
    expect(stopping.json<{ status: string }>().status).toBe('stopping');
  });
});

describe('readiness when the store stops answering, and during close', () => {
  it('turns "unavailable" when a check fails after start; "stopping" as soon as close begins', async () => {
    const server = await startTestServer(null, { seed: false, storage: true });
    try {
      expect((await server.app.inject({ method: 'GET', url: '/api/v1/ready' })).statusCode).toBe(200);
      const store = server.app.storage;
      server.app.storage = { ...store, headObject: () => Promise.reject(new Error('store down')) };
      await new Promise((done) => setTimeout(done, 1_100)); // past the one-second reuse of an answer
      const down = await server.app.inject({ method: 'GET', url: '/api/v1/ready' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ status: 'unavailable', checks: { migrations: true, database: true, storage: false } });
      server.app.storage = store;
      const closing = server.app.close();
      await new Promise((done) => setImmediate(done));
      expect((await server.app.readiness.check()).status).toBe('stopping');
      await closing;
    } finally {
      await server.close();
    }
  });
});

describe('METRICS_TOKEN', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(null, { seed: false, env: { METRICS_TOKEN: TOKEN, TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(async () => server?.close());

  it('opens /metrics from elsewhere with the bearer; a wrong or missing one is 401', async () => {
    const right = await metricsOf(server.app, { remoteAddress: PUBLIC_CLIENT, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(right.statusCode).toBe(200);
    expect(right.body).toContain('cutdesk_http_requests_total');
    const wrong = await metricsOf(server.app, { remoteAddress: PUBLIC_CLIENT, headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toMatch(/^Bearer/);
    expect((await metricsOf(server.app, { remoteAddress: PUBLIC_CLIENT, headers: { authorization: `Basic ${TOKEN}` } })).statusCode).toBe(401);
    expect((await metricsOf(server.app, { remoteAddress: PUBLIC_CLIENT })).statusCode).toBe(401);
  });

  it('with TRUST_PROXY, a public client forwarded by the trusted local proxy needs the token; a forwarded loopback client does not', async () => {
    expect((await metricsOf(server.app, { headers: { 'x-forwarded-for': PUBLIC_CLIENT } })).statusCode).toBe(401);
    // A client that claims loopback through the proxy: the proxy appends the real address.
    expect((await metricsOf(server.app, { headers: { 'x-forwarded-for': `127.0.0.1, ${PUBLIC_CLIENT}` } })).statusCode).toBe(401);
    expect((await metricsOf(server.app, { headers: { 'x-forwarded-for': '127.0.0.1' } })).statusCode).toBe(200);
  });

  it('is refused at start when too short, named and never shown', () => {
    const dataDir = join(tmpdir(), 'cutdesk-metrics-config');
    const attempt = () => loadConfig({ DATA_DIR: dataDir, METRICS_TOKEN: 'short-secret' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/METRICS_TOKEN must be at least 24/);
    expect(attempt).not.toThrow(/short-secret/);
    expect(() => loadConfig({ DATA_DIR: dataDir, LOG_FORMAT: 'fancy' })).toThrow(/LOG_FORMAT must be "json" or "pretty"/);
  });
});

describe('request ids and logs', () => {
  let app: FastifyInstance;
  let db: Db;
  let dataDir: string;
  const lines: string[] = [];
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cutdesk-logs-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      SEED: 'none',
      LOG_LEVEL: 'info',
      WEB_DIR: join(dataDir, 'no-web'),
      METRICS_TOKEN: TOKEN,
      MAX_EVENT_LOOP_DELAY_MS: '60000',
    });
    db = await connectDatabase({ databaseUrl: null, dataDir, inMemory: true });
    await migrateToLatest(db);
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    app = await buildApp({ config, db, logStream });
  });
  afterAll(async () => {
    await app?.close();
    await db?.destroy();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('echoes a sane X-Request-Id and replaces anything else', async () => {
    const given = 'lb-7f3a_0001';
    expect((await app.inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-request-id': given } })).headers['x-request-id']).toBe(given);
    const sixtyFour = 'a'.repeat(64);
    expect((await app.inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-request-id': sixtyFour } })).headers['x-request-id']).toBe(sixtyFour);
    for (const bad of ['a'.repeat(65), 'two words', 'id\u001b[31m', 'a,b', '../etc', '']) {
      const answered = (await app.inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-request-id': bad } })).headers['x-request-id'];
      expect(answered, JSON.stringify(bad)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
    const none = await app.inject({ method: 'GET', url: '/api/v1/no-such-route' });
    expect(none.statusCode).toBe(404);
    expect(none.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('log lines carry the request id; the metrics token never appears in them', async () => {
    await app.inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-request-id': 'follow-me-42' } });
    const ours = lines.map((line) => JSON.parse(line) as { reqId?: string; msg?: string }).filter((entry) => entry.reqId === 'follow-me-42');
    expect(ours.map((entry) => entry.msg)).toEqual(['incoming request', 'request completed']);

    await metricsOf(app, { remoteAddress: PUBLIC_CLIENT, headers: { authorization: `Bearer ${TOKEN}` } });
    await metricsOf(app, { remoteAddress: PUBLIC_CLIENT, headers: { authorization: `Bearer ${TOKEN}-wrong` } });
    await app.inject({ method: 'GET', url: `/metrics?token=${TOKEN}`, remoteAddress: PUBLIC_CLIENT });
    await app.inject({ method: 'GET', url: `/api/v1/health?token=${TOKEN}`, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(lines.length).toBeGreaterThan(4);
    expect(lines.join('\n')).not.toContain(TOKEN);
  });
});

describe('LOG_FORMAT=pretty', () => {
  it('prints a pino line as time, level, request id, message and fields, with an error stack below', () => {
    const time = Date.UTC(2026, 10, 23, 12, 3, 4, 567);
    const line = JSON.stringify({
      level: 30,
      time,
      pid: 1,
      hostname: 'h',
      reqId: 'abc-1',
      res: { statusCode: 200 },
      responseTime: 1.5049,
      msg: 'request completed',
    });
    expect(prettyLine(line, false)).toBe('12:03:04.567 INFO  [abc-1] request completed res={"statusCode":200} responseTime=1.5\n');
    const failed = prettyLine(JSON.stringify({ level: 50, time, msg: 'boom', err: { type: 'Error', message: 'x', stack: 'Error: x\n    at f' } }), true);
    expect(failed).toContain('\x1b[31mERROR\x1b[0m boom');
    expect(failed).toContain('\n    Error: x\n        at f');
    expect(prettyLine('not json', false)).toBe('not json\n');
  });
});
