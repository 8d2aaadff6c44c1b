import type { Kysely } from 'kysely';

/**
 * Issue 9: a per-user session version. Every token carries the version it was signed with;
 * raising it (password change or reset, disable, delete) ends all of the user's sessions at
 * once, since the user row is read on every request anyway.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('session_version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('session_version').execute();
}
