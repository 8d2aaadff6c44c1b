import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type Db } from '../../server/db/connect.ts';
import { backoffMs, PermanentJobError } from '../../server/media/queue.ts';
import { jobQueue } from '../../server/repositories/media-jobs.ts';
import { startRunner, type JobHandler } from '../../server/media/runner.ts';
import { DATABASES, startTestServer, type TestServer } from './harness.ts';

const FAST = { baseDelayMs: 20, maxDelayMs: 100 };
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await wait(20);
  }
}

describe('back-off', () => {
  it('doubles per failure within ±20 % and stops at the cap', () => {
    const mid = () => 0.5;
    expect(backoffMs(1, { baseDelayMs: 1000, maxDelayMs: 60_000 }, mid)).toBe(1000);
    expect(backoffMs(3, { baseDelayMs: 1000, maxDelayMs: 60_000 }, mid)).toBe(4000);
    expect(backoffMs(20, { baseDelayMs: 1000, maxDelayMs: 60_000 }, mid)).toBe(60_000);
    expect(backoffMs(1, { baseDelayMs: 1000, maxDelayMs: 60_000 }, () => 0)).toBe(800);
    expect(backoffMs(1, { baseDelayMs: 1000, maxDelayMs: 60_000 }, () => 1)).toBe(1200);
  });
});

describe.each(DATABASES)('media job queue on $name', ({ url }) => {
  let server: TestServer;
  /** A second connection (pool) to the same database, as a second server instance would have. */
  let other: Db;

  beforeAll(async () => {
    server = await startTestServer(url, { seed: false });
    other = server.config.databaseUrl ? await connectDatabase({ databaseUrl: server.config.databaseUrl, dataDir: server.dataDir }) : server.db;
  });
  afterAll(async () => {
    if (other !== server.db) await other.destroy();
    await server.close();
  });
  beforeEach(async () => {
    await sql`delete from media_jobs`.execute(server.db);
  });

  it('two consumers never run the same job, and every job runs', async () => {
    const ids = await jobQueue(server.db).enqueue(Array.from({ length: 40 }, (_v, i) => ({ kind: 'test.count', payload: { i } })));
    const runs = new Map<number, string[]>();
    const handler =
      (consumer: string): JobHandler =>
      async ({ job }) => {
        runs.set(job.id, [...(runs.get(job.id) ?? []), consumer]);
        await wait(Math.random() * 8);
      };
    const a = startRunner({ db: server.db, handlers: { 'test.count': handler('a') }, concurrency: 3, pollMs: 10, leaseMs: 5_000, id: 'consumer-a' });
    const b = startRunner({ db: other, handlers: { 'test.count': handler('b') }, concurrency: 3, pollMs: 10, leaseMs: 5_000, id: 'consumer-b' });
    try {
      await until(async () => {
        const row = await server.db
          .selectFrom('mediaJobs')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '=', 'done')
          .executeTakeFirstOrThrow();
        return Number(row.n) === ids.length;
      });
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    expect([...runs.keys()].sort((x, y) => x - y)).toEqual(ids);
    for (const consumers of runs.values()) expect(consumers).toHaveLength(1);
    const rows = await server.db.selectFrom('mediaJobs').select(['attempts', 'status']).execute();
    expect(rows.every((row) => row.attempts === 1 && row.status === 'done')).toBe(true);
    // Both consumers took part (PGlite's one connection included).
    const byConsumer = [...runs.values()].flat();
    expect(byConsumer).toContain('a');
    expect(byConsumer).toContain('b');
  });

  it('concurrent claims of one job: exactly one wins', async () => {
    const [id] = await jobQueue(server.db).enqueue([{ kind: 'test.race' }]);
    const claims = await Promise.all([
      jobQueue(server.db).claim('w1', ['test.race'], 10_000),
      jobQueue(other).claim('w2', ['test.race'], 10_000),
      jobQueue(server.db).claim('w3', ['test.race'], 10_000),
      jobQueue(other).claim('w4', ['test.race'], 10_000),
    ]);
    expect(claims.filter(Boolean).map((job) => job!.id)).toEqual([id]);
  });

  it('a job whose worker crashed mid-job is run again once its lease runs out', async () => {
    const queue = jobQueue(server.db);
    const [id] = await queue.enqueue([{ kind: 'test.crash' }]);
    // The crashed worker: it claimed the job with a short lease and never reports again.
    // The lease is long enough that the second claim lands inside it even on a busy machine;
    // the test then waits for the database's own clock to pass it, never a fixed sleep.
    const claimed = await queue.claim('crashed-worker', ['test.crash'], 1_000);
    expect(claimed?.id).toBe(id);
    expect(await jobQueue(other).claim('survivor', ['test.crash'], 10_000)).toBeNull();
    await until(async () => {
      const { rows } = await sql<{ expired: boolean }>`select locked_until < now() as expired from media_jobs where id = ${id!}`.execute(server.db);
      return rows[0]?.expired === true;
    });
    let ranBy: string | null = null;
    const survivor = startRunner({
      db: other,
      handlers: { 'test.crash': async () => void (ranBy = 'survivor') },
      pollMs: 10,
      retry: { baseDelayMs: 1, maxDelayMs: 1 },
      id: 'survivor',
    });
    try {
      await until(async () => (await queue.get(id!))?.status === 'done');
    } finally {
      await survivor.stop();
    }
    const row = (await queue.get(id!))!;
    expect(ranBy).toBe('survivor');
    expect(row.attempts).toBe(2);
    expect(row.lastError).toMatch(/lease expired/);
  });

  it('a crash of the handler (an exception) is retried with back-off and then succeeds', async () => {
    const queue = jobQueue(server.db);
    const [id] = await queue.enqueue([{ kind: 'test.flaky', maxAttempts: 4 }]);
    let calls = 0;
    const runner = startRunner({
      db: server.db,
      handlers: {
        'test.flaky': async () => {
          calls += 1;
          if (calls < 3) throw new Error(`transient failure ${calls}`);
        },
      },
      pollMs: 5,
      retry: FAST,
    });
    try {
      await until(async () => (await queue.get(id!))?.status === 'done');
    } finally {
      await runner.stop();
    }
    const row = (await queue.get(id!))!;
    expect(calls).toBe(3);
    expect(row.attempts).toBe(3);
    expect(row.lastError).toBe('transient failure 2');
  });

  it('a poison job ends failed with its error after its attempts; a permanent error fails at once', async () => {
    const queue = jobQueue(server.db);
    const [poison, permanent, healthy] = await queue.enqueue([
      { kind: 'test.poison', maxAttempts: 3 },
      { kind: 'test.permanent', maxAttempts: 5 },
      { kind: 'test.ok' },
    ]);
    let poisonCalls = 0;
    const runner = startRunner({
      db: server.db,
      handlers: {
        'test.poison': async () => {
          poisonCalls += 1;
          throw new Error('ffmpeg exited with 1: Invalid data found when processing input');
        },
        'test.permanent': async () => {
          throw new PermanentJobError('The source object does not exist.');
        },
        'test.ok': async () => undefined,
      },
      pollMs: 5,
      retry: FAST,
    });
    try {
      await until(async () => (await queue.get(poison!))?.status === 'failed' && (await queue.get(permanent!))?.status === 'failed');
      await until(async () => (await queue.get(healthy!))?.status === 'done');
    } finally {
      await runner.stop();
    }
    const failed = (await queue.get(poison!))!;
    expect(poisonCalls).toBe(3);
    expect(failed.attempts).toBe(3);
    expect(failed.lastError).toContain('Invalid data found');
    expect(failed.finishedAt).not.toBeNull();
    const gone = (await queue.get(permanent!))!;
    expect(gone.attempts).toBe(1);
    expect(gone.lastError).toBe('The source object does not exist.');
  });

  it('jobs of kinds this instance cannot run wait (no ffmpeg): they stay queued', async () => {
    const queue = jobQueue(server.db);
    const [id] = await queue.enqueue([{ kind: 'final.hls' }]);
    const runner = startRunner({ db: server.db, handlers: { 'final.hls': async () => undefined }, runnableKinds: () => [], pollMs: 5 });
    await wait(100);
    await runner.stop();
    expect((await queue.get(id!))?.status).toBe('queued');
  });

  it('idle() waits for a claim begun after it was asked: one already under way may have missed new jobs', async () => {
    const queue = jobQueue(server.db);
    const [id] = await queue.enqueue([{ kind: 'test.late' }]);
    let claims = 0;
    let idle: Promise<void> | null = null;
    const runner = startRunner({
      db: server.db,
      handlers: { 'test.late': async () => undefined },
      // The first claim is one begun before the job could be seen (it asks for no kind), and the
      // test asks whether the queue is idle while that claim is under way.
      runnableKinds: () => {
        claims += 1;
        if (claims > 1) return ['test.late'];
        idle = runner.idle();
        return [];
      },
      pollMs: 60_000,
    });
    try {
      await until(async () => idle !== null);
      await idle;
      expect((await queue.get(id!))?.status).toBe('done');
    } finally {
      await runner.stop();
    }
  });

  it('a stopping runner hands its running job back without spending the attempt', async () => {
    const queue = jobQueue(server.db);
    const [id] = await queue.enqueue([{ kind: 'test.slow' }]);
    let started = false;
    const runner = startRunner({
      db: server.db,
      handlers: {
        'test.slow': ({ signal }) =>
          new Promise((_resolve, reject) => {
            started = true;
            signal.addEventListener('abort', () => reject(signal.reason));
          }),
      },
      pollMs: 5,
    });
    await until(async () => started);
    await runner.stop();
    const row = (await queue.get(id!))!;
    expect(row.status).toBe('queued');
    expect(row.attempts).toBe(0);
  });
});
