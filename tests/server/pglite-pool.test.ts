import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, embeddedPglite, type Db, type EmbeddedPglite } from '../../server/db/connect.ts';
import { seedDemo } from '../../server/seed/demo.ts';
import { pooledDatabase } from './pglite-pool.ts';

/**
 * The tests' pool of open PGlite databases (tests/server/pglite-pool.ts): a database a test
 * server had must come back to the next one exactly as a new database from the image would be,
 * or not come back at all. Every server test on PGlite depends on it.
 */

/** Every table's rows and every sequence's state, in a form two databases can be compared by. */
async function contents(pglite: EmbeddedPglite): Promise<Record<string, unknown>> {
  const { rows: relations } = await pglite.query<{ name: string; kind: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name, c.relkind as kind from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'S') order by 1`,
  );
  const state: Record<string, unknown> = {};
  for (const { name, kind } of relations) {
    const query = kind === 'S' ? `select last_value, is_called from ${name}` : `select coalesce(json_agg(t), '[]') as rows from ${name} t`;
    state[name] = (await pglite.query(query)).rows;
  }
  return state;
}

describe('the pool of open PGlite databases', () => {
  let fresh: Db;
  let image: Record<string, unknown>;

  beforeAll(async () => {
    // Opened twice: on a machine without the image yet, the first open makes it from its own
    // database, and the pool's databases (like every later one) are loaded from the image.
    await (await connectDatabase({ databaseUrl: null, dataDir: '', inMemory: true, migrated: true })).destroy();
    fresh = await connectDatabase({ databaseUrl: null, dataDir: '', inMemory: true, migrated: true });
    image = await contents(embeddedPglite(fresh)!);
  });
  afterAll(async () => {
    await fresh.destroy();
  });

  it('hands back a database a test wrote to exactly as the image made it: rows, sequences and session settings', async () => {
    const first = await pooledDatabase();
    const taken = await contents(embeddedPglite(first.db)!);
    await seedDemo(first.db, 'demo-password');
    await sql`update payment_plans set monthly_credits = monthly_credits + 1`.execute(first.db);
    await sql`set statement_timeout = 1234`.execute(first.db);
    await sql`prepare probe as select 1`.execute(first.db);
    expect(await contents(embeddedPglite(first.db)!)).not.toEqual(image);
    await first.db.destroy();
    await first.release();

    const second = await pooledDatabase();
    try {
      const handedBack = await contents(embeddedPglite(second.db)!);
      // Exactly as it was when taken (the pool hands out the most recently returned database)…
      expect(handedBack).toEqual(taken);
      // …which is what a new database from the image holds (on a new machine, every worker loads
      // the first image saved: server/db/image.ts saveImage).
      expect(handedBack).toEqual(image);
      expect((await sql<{ statementTimeout: string }>`show statement_timeout`.execute(second.db)).rows[0]?.statementTimeout).toBe('0');
      expect(
        (await sql<{ count: number }>`select count(*)::int as count from pg_prepared_statements where name = 'probe'`.execute(second.db)).rows[0]?.count,
      ).toBe(0);
    } finally {
      await second.db.destroy();
      await second.release();
    }
  });

  it('closes the handle it lent: a job of a closed server still running cannot write into the next test', async () => {
    const lent = await pooledDatabase();
    const handle = embeddedPglite(lent.db)!;
    await lent.db.destroy();
    await lent.release();
    expect(handle.closed).toBe(true);
    await expect(handle.query('select 1')).rejects.toThrow(/closed/);
  });

  it('never hands out again a database whose schema a test changed', async () => {
    const changed = await pooledDatabase();
    await sql`alter table users add column pool_probe integer`.execute(changed.db);
    await changed.db.destroy();
    await changed.release();

    const next = await pooledDatabase();
    try {
      const { rows } = await sql<{ count: number }>`select count(*)::int as count from information_schema.columns where column_name = 'pool_probe'`.execute(
        next.db,
      );
      expect(rows[0]?.count).toBe(0);
    } finally {
      await next.db.destroy();
      await next.release();
    }
  });

  it('drops the listeners of the server that had it, and the next one hears its own notifications', async () => {
    const first = await pooledDatabase();
    const heardByFirst: string[] = [];
    await embeddedPglite(first.db)!.listen('cutdesk_pool_probe', (payload) => heardByFirst.push(payload));
    await first.db.destroy();
    await first.release();

    const second = await pooledDatabase();
    try {
      const heardBySecond: string[] = [];
      await embeddedPglite(second.db)!.listen('cutdesk_pool_probe', (payload) => heardBySecond.push(payload));
      await sql`select pg_notify('cutdesk_pool_probe', 'hello')`.execute(second.db);
      await expect.poll(() => heardBySecond).toEqual(['hello']);
      expect(heardByFirst).toEqual([]);
    } finally {
      await second.db.destroy();
      await second.release();
    }
  });
});
