import type { Kysely } from 'kysely';

/**
 * Issue 35 "Prove every byte arrived": the CRC-32 of a file as the customer's device read it
 * (the upload worker computes it over each part it sends, and combines them). Every part was
 * checked against its CRC by the store on arrival; the media worker later reads the stored
 * object back (`crc32`, migration 0016). The two equal: the asset is verified, bit for bit. Null
 * for assets uploaded before this migration, or by a page that did not compute it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assets').addColumn('sent_crc32', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('assets').dropColumn('sent_crc32').execute();
}
