import { sql, type Kysely } from 'kysely';

/**
 * Issue 9, second attack:
 * - `projects.version_released`: the customer sees the final video only once staff sent it to
 *   review. The status alone could not say so: hide then restore leads any project to ARCHIVED
 *   (A§ "Restore moves HIDDEN back to ARCHIVED"), unreviewed work included.
 * - `storage_credentials` remember the session that asked for them, so upload credentials end
 *   with it (password reset, the impersonating admin's revocation), not an hour later.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('projects')
    .addColumn('version_released', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  // Projects already past review were released under the old rule (status alone).
  await sql`update projects set version_released = true where status in ('IN_REVIEW', 'APPROVED', 'ARCHIVED')`.execute(db);
  await db.schema
    .alterTable('storage_credentials')
    .addColumn('session_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('impersonator_id', 'integer')
    .addColumn('impersonator_session_version', 'integer')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('storage_credentials')
    .dropColumn('session_version')
    .dropColumn('impersonator_id')
    .dropColumn('impersonator_session_version')
    .execute();
  await db.schema.alterTable('projects').dropColumn('version_released').execute();
}
