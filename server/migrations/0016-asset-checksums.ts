import { sql, type Kysely } from 'kysely';

/**
 * Issue 14 "Zips": each asset's CRC-32, computed once by the media worker after registration
 * (job `asset.checksum`, server/media/pipeline.ts). A zip made on the user's device needs every
 * entry's CRC-32; with it known, the device no longer computes it over every byte, and the
 * download service worker can fetch the entry itself (the bytes skip the media worker). Null until
 * the job has run, and for an object whose length differs from the registered size.
 * Assets registered before this migration get their job here: one per object (a duplicated
 * project's assets share theirs; the job records the CRC on every row of the object), after any
 * other media work (priority 200), so new uploads' previews do not wait for a read of the whole
 * store.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assets').addColumn('crc32', 'bigint').execute();
  await sql`
    insert into media_jobs (kind, project_id, asset_id, source_key, priority)
    select distinct on (path) 'asset.checksum', project_id, id, path, 200
    from assets where deleted_at is null order by path, id
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from media_jobs where kind = 'asset.checksum'`.execute(db);
  await db.schema.alterTable('assets').dropColumn('crc32').execute();
}
