import { sql, type Kysely } from 'kysely';

/**
 * Issue 14 "Zips": each asset's CRC-32, computed once by the media worker after registration
 * (job `asset.checksum`, server/media/pipeline.ts). A zip made on the user's device needs every
 * entry's CRC-32; with it known, the device no longer computes it over every byte, and the
 * download service worker can fetch the entry itself (the bytes skip the media worker). Null until
 * the job has run, and for an object whose length differs from the registered size.
 * Assets registered before this migration get their job here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assets').addColumn('crc32', 'bigint').execute();
  await sql`
    insert into media_jobs (kind, project_id, asset_id, source_key, priority)
    select 'asset.checksum', project_id, id, path, 55 from assets where deleted_at is null
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from media_jobs where kind = 'asset.checksum'`.execute(db);
  await db.schema.alterTable('assets').dropColumn('crc32').execute();
}
