import { isAbortedTransactionError, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { embeddedPglite, openDatabase, type Db } from '../../server/db/connect.ts';
import { isUniqueViolation } from '../../server/db/errors.ts';
import { BUSY_MESSAGE } from '../../server/http-error.ts';
import { DatabaseBusy, MAX_WAITING, PgliteThread, startPgliteThread } from '../../server/db/pglite-bridge.ts';
import { migrateToLatest } from '../../server/migrations/index.ts';

/**
 * Embedded PGlite on its own thread (issue 14; `npm start` runs it so): what the server relies
 * on from the in-process PGlite holds across the thread — values parsed the same, transactions
 * that commit or roll back as a whole, PostgreSQL's error codes, notifications at commit, the
 * backup's dump — and a full queue is refused with a 503 at once.
 */
describe('PGlite on its own thread', () => {
  const opened: Db[] = [];
  // One database for the tests that need no other (each start is an initdb: seconds on CI); each
  // test starts from an empty table `t`.
  let shared: Db;
  beforeAll(async () => {
    const database = await openDatabase({ databaseUrl: null, dataDir: '', inMemory: true, thread: true });
    shared = database.db;
    await database.opened;
  });
  afterAll(async () => {
    await Promise.all([shared, ...opened].map((db) => db.destroy()));
  });
  const open = async () => {
    await sql`drop table if exists t`.execute(shared);
    await sql`create table t (id int8 primary key, day date, label text unique, data jsonb)`.execute(shared);
    return shared;
  };

  it('answers statements with the same values as in this thread: int8 as a number, a date as its text, jsonb as an object', async () => {
    const db = await open();
    await sql`insert into t values (${9_007_199_254_740_000}, '2026-11-26', 'a', ${JSON.stringify({ n: 1 })})`.execute(db);
    const { rows } = await sql<{ id: number; day: string; data: { n: number } }>`select id, day, data from t`.execute(db);
    expect(rows).toEqual([{ id: 9_007_199_254_740_000, day: '2026-11-26', data: { n: 1 } }]);
    const updated = await sql`update t set label = 'b'`.execute(db);
    expect(updated.numAffectedRows).toBe(1n);
  });

  it('commits a transaction as a whole, and rolls one back as a whole when it throws', async () => {
    const db = await open();
    await db.transaction().execute(async (trx) => {
      await sql`insert into t (id, label) values (1, 'one')`.execute(trx);
      await sql`insert into t (id, label) values (2, 'two')`.execute(trx);
    });
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`insert into t (id, label) values (3, 'three')`.execute(trx);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const { rows } = await sql<{ id: number }>`select id from t order by id`.execute(db);
    expect(rows.map((row) => row.id)).toEqual([1, 2]);
  });

  it("keeps PostgreSQL's error code, which the services test (a unique violation), and the failed transaction leaves nothing", async () => {
    const db = await open();
    await sql`insert into t (id, label) values (1, 'same')`.execute(db);
    const failure = await sql`insert into t (id, label) values (2, 'same')`.execute(db).catch((error: unknown) => error);
    expect(isUniqueViolation(failure)).toBe(true);
    expect((failure as { constraint?: string }).constraint).toBe('t_label_key');
    const inTransaction = await db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into t (id, label) values (5, 'five')`.execute(trx);
        await sql`insert into t (id, label) values (6, 'same')`.execute(trx);
      })
      .catch((error: unknown) => error);
    expect(isUniqueViolation(inTransaction)).toBe(true);
    expect((await sql<{ n: number }>`select count(*)::int as n from t`.execute(db)).rows[0]!.n).toBe(1);
  });

  it("reports a commit after a failed statement as Kysely's aborted transaction, and keeps none of it", async () => {
    const db = await open();
    await sql`insert into t (id, label) values (1, 'taken')`.execute(db);
    const failure = await db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into t (id, label) values (2, 'new')`.execute(trx);
        // The caller swallows the error and goes on: the transaction is over all the same.
        await sql`insert into t (id, label) values (3, 'taken')`.execute(trx).catch(() => undefined);
      })
      .catch((error: unknown) => error);
    expect(isAbortedTransactionError(failure)).toBe(true);
    expect((await sql<{ label: string }>`select label from t order by id`.execute(db)).rows).toEqual([{ label: 'taken' }]);
  });

  it('delivers a notification to the listener at commit, not before', async () => {
    const db = await open();
    const heard: string[] = [];
    const unlisten = await embeddedPglite(db)!.listen('cutdesk_test', (payload) => heard.push(payload));
    let before: string[] = [];
    await db.transaction().execute(async (trx) => {
      await sql`select pg_notify('cutdesk_test', 'inside')`.execute(trx);
      before = [...heard];
    });
    await expect.poll(() => heard).toEqual(['inside']);
    expect(before).toEqual([]);
    await unlisten();
    await sql`select pg_notify('cutdesk_test', 'after unlisten')`.execute(db);
    await sql`select 1`.execute(db);
    expect(heard).toEqual(['inside']);
  });

  it('dumps the database for a backup', async () => {
    const db = await open();
    const dump = await embeddedPglite(db)!.dumpDataDir('none');
    const bytes = new Uint8Array(await dump.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(1_000_000);
    // A tar file: "ustar" at offset 257 of its first header.
    expect(new TextDecoder().decode(bytes.subarray(257, 262))).toBe('ustar');
  });

  it('keeps concurrent transactions apart: one rolled back takes none of the other with it', async () => {
    const db = await open();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const first = new Promise<void>((resolve) => (inserted = resolve));
    const doomed = db.transaction().execute(async (trx) => {
      await sql`insert into t (id, label) values (1, 'rolled back')`.execute(trx);
      inserted();
      await held;
      throw new Error('changed my mind');
    });
    await first;
    // Its statements wait for the first transaction, on the database's thread, not here.
    const kept = db.transaction().execute(async (trx) => {
      await sql`insert into t (id, label) values (2, 'kept')`.execute(trx);
    });
    const outside = sql<{ label: string }>`select label from t`.execute(db);
    release();
    await expect(doomed).rejects.toThrow('changed my mind');
    await kept;
    // A statement from outside never sees what a transaction has not committed.
    expect((await outside).rows.map((row) => row.label)).not.toContain('rolled back');
    const { rows } = await sql<{ label: string }>`select label from t`.execute(db);
    expect(rows).toEqual([{ label: 'kept' }]);
  });

  it(`refuses statement ${MAX_WAITING + 1} while ${MAX_WAITING} wait, with a 503 that says when to try again; a transaction under way still finishes`, async () => {
    const db = await open();
    const pglite = embeddedPglite(db) as PgliteThread;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let began!: () => void;
    const begun = new Promise<void>((resolve) => (began = resolve));
    // The connection held by a transaction: every statement outside it waits.
    const transaction = db.transaction().execute(async (trx) => {
      began();
      await held;
      return (await sql<{ n: number }>`select 41 + 1 as n`.execute(trx)).rows[0]!.n;
    });
    await begun;
    // Requests' statements as the server sends them, through Kysely.
    const waiting = Array.from({ length: MAX_WAITING }, (_, i) => sql<{ i: number }>`select ${i}::int as i`.execute(db));
    await expect.poll(() => pglite.waiting).toBe(MAX_WAITING);
    const refused = await sql`select 1`.execute(db).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DatabaseBusy);
    expect((refused as DatabaseBusy).statusCode).toBe(503);
    expect((refused as DatabaseBusy).retryAfterSeconds).toBeGreaterThan(0);
    release();
    expect(await transaction).toBe(42);
    expect((await Promise.all(waiting)).map((answer) => answer.rows[0]!.i)).toEqual(Array.from({ length: MAX_WAITING }, (_, i) => i));
    // The queue drained: statements are taken again.
    expect(pglite.waiting).toBe(0);
    expect((await sql<{ ok: number }>`select 1 as ok`.execute(db)).rows).toEqual([{ ok: 1 }]);
  });

  it('answers a request the full queue refuses with 503, Retry-After and the plain message', async () => {
    const pglite = await startPgliteThread({ dataDir: '', inMemory: true });
    const { db, opened: ready } = await openDatabase({ databaseUrl: null, dataDir: '', thread: true, pglite });
    opened.push(db);
    await ready;
    await migrateToLatest(db);
    const app = await buildApp({
      config: loadConfig({ DATA_DIR: '/nonexistent', SEED: 'none', LOG_LEVEL: 'silent', WEB_DIR: '/nonexistent/web', MAX_EVENT_LOOP_DELAY_MS: '60000' }),
      db,
    });
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let began!: () => void;
      const begun = new Promise<void>((resolve) => (began = resolve));
      const transaction = db.transaction().execute(async () => {
        began();
        await held;
      });
      await begun;
      const waiting = Array.from({ length: MAX_WAITING }, () => sql`select 1`.execute(db));
      await expect.poll(() => pglite.waiting).toBe(MAX_WAITING);
      const answer = await app.inject({ method: 'POST', url: '/api/v1/login', payload: { email: 'someone@example.com', password: 'not-the-password' } });
      expect(answer.statusCode).toBe(503);
      expect(answer.headers['retry-after']).toBeDefined();
      expect(answer.json()).toEqual({ message: BUSY_MESSAGE });
      release();
      await transaction;
      await Promise.all(waiting);
    } finally {
      await app.close();
    }
  });

  it('refuses a transaction once the database is closed, at once, and nothing asked after it waits', async () => {
    const { db, opened: ready } = await openDatabase({ databaseUrl: null, dataDir: '', inMemory: true, thread: true });
    await ready;
    await (embeddedPglite(db) as PgliteThread).close();
    await expect(db.transaction().execute(async (trx) => sql`select 1`.execute(trx))).rejects.toThrow('closed');
    await expect(sql`select 1`.execute(db)).rejects.toThrow('closed');
  });

  it('reports a thread that could not open the database to whoever waits for it', async () => {
    const pglite = new PgliteThread({ dataDir: '/proc/no-such-place/db', image: null });
    await expect(pglite.waitReady).rejects.toThrow();
    await expect(pglite.query('select 1')).rejects.toThrow();
    await pglite.close().catch(() => undefined);
  });
});
