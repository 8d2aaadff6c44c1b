import { sql, type Kysely } from 'kysely';

/**
 * Rate limits (issue 9): one counter per key (route and IP, or action, e-mail and IP) in a
 * fixed window. Kept in the database so every instance of the server counts together; the
 * window's end is computed with the database's clock, so instances never disagree about it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('reset_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // The sweep of ended windows reads by end time.
  await sql`create index rate_limits_reset_at on rate_limits (reset_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limits').execute();
}
