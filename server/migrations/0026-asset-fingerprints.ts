import { sql, type Kysely } from 'kysely';

/**
 * Issue 35 "never send the same bytes twice": the fingerprint of a stored object
 * (src/domain/fingerprint.ts), taken by the media worker from the stored bytes while it reads
 * them for their CRC-32. An upload whose file has the same size, fingerprint and CRC-32 as an
 * object the organization holds becomes an asset of that object, with no byte sent. Null until
 * the object has been read (and for objects read before this migration).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assets').addColumn('fingerprint', 'text').execute();
  await sql`create index assets_fingerprint_idx on assets (fingerprint, size) where fingerprint is not null and deleted_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists assets_fingerprint_idx`.execute(db);
  await db.schema.alterTable('assets').dropColumn('fingerprint').execute();
}
