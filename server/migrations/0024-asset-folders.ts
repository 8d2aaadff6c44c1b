import type { Kysely } from 'kysely';

/**
 * Issue 35 "Folders": the folder an asset's file sat in inside a folder (a camera card) the
 * customer dropped on an upload zone ("CARD/DCIM/100MSDCF"), as src/domain/camera-card.ts
 * `cleanFolder` leaves it. Shown beside the name and kept in zips (`interviews/CARD/DCIM/
 * 100MSDCF/C0001.MP4`), never part of an object key. Null for a file picked alone, and for every
 * asset registered before this migration (nobody knows where those sat).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assets').addColumn('folder', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assets').dropColumn('folder').execute();
}
