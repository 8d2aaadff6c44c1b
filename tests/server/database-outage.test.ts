import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { connectDatabase, type Db } from '../../server/db/connect.ts';
import { isDatabaseUnavailable } from '../../server/db/errors.ts';
import { jobQueue } from '../../server/repositories/media-jobs.ts';
import { startRunner } from '../../server/media/runner.ts';
import { UNAVAILABLE_MESSAGE } from '../../server/http-error.ts';
import { migrateToLatest } from '../../server/migrations/index.ts';
import { seedDemo } from '../../server/seed/demo.ts';
import { connectStorage } from '../../server/storage/setup.ts';
import { createPrivatePostgres, privatePostgresMissing, type PrivatePostgres } from '../support/private-postgres.ts';
import { DEMO_PASSWORD, signIn } from './harness.ts';

/**
 * Issue 32, "health that orchestrators can trust": a PostgreSQL of the test's own is stopped under
 * a running server and started again. Liveness (/health) never depends on the database; readiness
 * (/ready) and every call that needs the database answer 503 with Retry-After meanwhile, never
 * 500, and the same calls work again once the database is back, without restarting the server.
 */

describe('isDatabaseUnavailable', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
    code: 'ECONNREFUSED',
    syscall: 'connect',
    address: '127.0.0.1',
    port: 5432,
  });
  const refusedV6 = Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED', syscall: 'connect' });
  const withCause = (message: string, cause: unknown) => new Error(message, { cause });
  const cyclic: { message: string; cause?: unknown } = { message: 'a cause of its own' };
  cyclic.cause = cyclic;

  it.each([
    ['connection refused', refused],
    ['connection refused on every address of a name (AggregateError)', new AggregateError([refusedV6, refused], '')],
    ['connection reset', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' })],
    ['a stopped server’s Unix socket', Object.assign(new Error('connect ENOENT /run/postgresql/.s.PGSQL.5432'), { code: 'ENOENT', syscall: 'connect' })],
    ['a database host that does not resolve', Object.assign(new Error('getaddrinfo ENOTFOUND db'), { code: 'ENOTFOUND', syscall: 'getaddrinfo' })],
    ['admin_shutdown (57P01)', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' })],
    ['cannot_connect_now (57P03)', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
    ['a connection exception (08006)', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['a connection that ended mid-query', new Error('Connection terminated unexpectedly')],
    ['a client whose connection broke', new Error('Client has encountered a connection error and is not queryable')],
    ['the pool’s connect timeout', new Error('timeout exceeded when trying to connect')],
    ['a connect timeout with its cause', withCause('Connection terminated due to connection timeout', new Error('Connection terminated'))],
    ['Kysely after the database closed (shutdown)', new Error('driver has already been destroyed')],
    ['an error wrapping one of these', withCause('query failed', refused)],
  ])('%s: unavailable', (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['unique_violation (23505)', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['undefined_table (42P01)', Object.assign(new Error('relation "x" does not exist'), { code: '42P01' })],
    ['invalid_text_representation (22P02)', Object.assign(new Error('invalid input syntax'), { code: '22P02' })],
    ['a missing file', Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT', syscall: 'open' })],
    ['a plain error', new Error('boom')],
    ['an AggregateError of other failures', new AggregateError([new Error('a'), refused], '')],
    ['a cycle of causes', cyclic],
    ['a string', 'ECONNREFUSED'],
    ['null', null],
  ])('%s: not unavailable', (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

const missing = privatePostgresMissing();
const OWNER = 'owner@demo.cutdesk.test';
/** In the URL only: trust authentication never asks for it, and no log line may show it. */
const SECRET = 'never-logged-7f3a91';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  dbError?: { type?: string; message?: string; code?: unknown };
  err?: unknown;
}

/** Waits for `check` to hold (a log line to arrive), at most 10 s. */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((done) => setTimeout(done, 20));
  }
}

describe.skipIf(missing !== null)(`a database outage under a running server${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let postgres: PrivatePostgres;
  let db: Db;
  let app: FastifyInstance;
  let dataDir: string;
  const lines: LogLine[] = [];

  beforeAll(async () => {
    postgres = await createPrivatePostgres();
    await postgres.start();
    const url = postgres.url.replace('postgres@', `postgres:${SECRET}@`);
    dataDir = await mkdtemp(join(tmpdir(), 'cutdesk-outage-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: url,
      SEED: 'none',
      LOG_LEVEL: 'warn',
      WEB_DIR: join(dataDir, 'no-web'),
      MAX_EVENT_LOOP_DELAY_MS: '60000',
    });
    db = await connectDatabase({ databaseUrl: url, dataDir });
    await migrateToLatest(db);
    await seedDemo(db, DEMO_PASSWORD);
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
        done();
      },
    });
    app = await buildApp({ config, db, logStream });
    // Listening, with the embedded store connected: /ready can be 200.
    await app.listen({ host: '127.0.0.1', port: 0 });
    await connectStorage(app);
  });
  afterAll(async () => {
    await app?.close();
    await db?.destroy().catch(() => undefined);
    await postgres?.remove();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
  const login = () => app.inject({ method: 'POST', url: '/api/v1/login', payload: { email: OWNER, password: DEMO_PASSWORD } });
  /** /ready until it answers `status` (its answer is reused for a second). */
  const readyUntil = async (status: number): Promise<LightMyRequestResponse> => {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const answer = await get('/ready');
      if (answer.statusCode === status || Date.now() > deadline) return answer;
      await new Promise((done) => setTimeout(done, 100));
    }
  };
  const expectUnavailable = (answer: LightMyRequestResponse) => {
    expect(answer.statusCode, answer.body).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
    expect(answer.json()).toEqual({ message: UNAVAILABLE_MESSAGE });
  };

  it('keeps /health at 200, answers 503 with Retry-After while PostgreSQL is down, and serves again once it is back', async () => {
    expect((await readyUntil(200)).statusCode).toBe(200);
    const owner = await signIn(app, OWNER);
    expect((await get('/me', owner)).statusCode).toBe(200);

    // A media worker polling the queue all along (every 50 ms here).
    const runner = startRunner({ db, handlers: { 'test.outage': async () => undefined }, pollMs: 50, log: app.log });

    // A statement in flight when the server stops is ended by it (admin_shutdown).
    const inFlight = sql`select pg_sleep(30)`.execute(db).then(
      () => null,
      (error: unknown) => error,
    );
    await new Promise((done) => setTimeout(done, 100));
    await postgres.stop();
    const ended = await inFlight;
    expect(isDatabaseUnavailable(ended), String(ended)).toBe(true);

    // Liveness: the process is fine.
    const health = await get('/health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    // Readiness: out of rotation, and when to ask again.
    const notReady = await readyUntil(503);
    expect(notReady.statusCode).toBe(503);
    expect(notReady.headers['retry-after']).toBe('5');
    expect(notReady.json()).toEqual({ status: 'unavailable', checks: { migrations: true, database: false, storage: true } });
    // Signed-in calls (the session is read from the database) and a sign-in: 503, not 500.
    const failed = [await get('/me', owner), await login(), await app.inject({ method: 'PUT', url: '/api/v1/me/refresh-token', headers: owner })];
    for (const answer of failed) expectUnavailable(answer);
    // Over the network too, as a balancer or a browser sees it.
    const live = await fetch(`http://127.0.0.1:${portOf(app)}/api/v1/me`, { headers: owner });
    expect(live.status).toBe(503);
    expect(live.headers.get('retry-after')).toBe('5');
    expect((await fetch(`http://127.0.0.1:${portOf(app)}/api/v1/health`)).status).toBe(200);

    // One warning a failed request, without a stack, and no secret anywhere in the log.
    const warned = lines.filter((line) => line.msg === 'database unavailable');
    const failedIds = [...failed.map((answer) => answer.headers['x-request-id']), live.headers.get('x-request-id')];
    expect(warned.map((line) => line.reqId).sort()).toEqual([...failedIds].sort());
    for (const line of warned) {
      expect(line.level).toBe(40);
      expect(line.err).toBeUndefined();
      expect(line.dbError).toEqual({ type: 'Error', message: expect.stringMatching(/ECONNREFUSED 127\.0\.0\.1:\d+$/), code: 'ECONNREFUSED' });
    }
    // The media worker polled on: one warning for the outage, not an error a poll.
    await until(() => lines.some((line) => line.msg.startsWith('media queue: the database is unavailable')));
    await new Promise((done) => setTimeout(done, 300));
    expect(lines.filter((line) => line.msg.startsWith('media queue'))).toHaveLength(1);
    // Nothing else at error level (the rate limit of the sign-in found no database either).
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain(SECRET);

    // Back: the same calls work on the same server and the same pool.
    await postgres.start();
    expect((await readyUntil(200)).json()).toEqual({ status: 'ready', checks: { migrations: true, database: true, storage: true } });
    expect((await get('/me', owner)).statusCode).toBe(200);
    expect((await login()).statusCode).toBe(200);
    expect((await get('/health')).statusCode).toBe(200);
    // The media worker claims again: a job enqueued now is run.
    const [jobId] = await jobQueue(db).enqueue([{ kind: 'test.outage' }]);
    runner.wake();
    for (const deadline = Date.now() + 10_000; (await jobQueue(db).get(jobId!))?.status !== 'done';) {
      if (Date.now() > deadline) throw new Error('the media worker did not claim again');
      await new Promise((done) => setTimeout(done, 50));
    }
    await runner.stop();

    // Shutting down: a request that finds the database already closed is a 503 too (Kysely's
    // "driver has already been destroyed"), never a 500.
    await db.destroy();
    expectUnavailable(await get('/me', owner));
  });
});

function portOf(app: FastifyInstance): number {
  const address = app.server.address();
  return typeof address === 'object' && address ? address.port : 0;
}
