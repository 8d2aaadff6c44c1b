import type { Kysely } from 'kysely';

/**
 * Issue 12: Restore brings a staff-deleted (HIDDEN) project back to the status it had, so
 * Delete remembers it here (src/domain/project-rules.ts `restoreTarget`). Projects deleted
 * before this migration keep null and are restored as A§4 says, to ARCHIVED.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('status_before_hidden', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('status_before_hidden').execute();
}
