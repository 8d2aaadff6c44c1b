import { sql, type Kysely } from 'kysely';

/**
 * Issue 13, guest reviewers. The owner shares one version of a project with someone who has no
 * account: `review_share_links` holds each link (its version, optional password hash, expiry,
 * revocation). The link's token is not stored: it is an HMAC of the row's id and `salt` under a
 * key derived from the server's secret, so the table alone opens nothing and the owner can still
 * copy the link again later. A guest's comment records the link it came through
 * (`review_comments.share_link_id`) and the name the guest typed (`author_name`, role `GUEST`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('review_share_links')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('version_id', 'integer', (c) => c.notNull().references('project_versions.id').onDelete('cascade'))
    .addColumn('salt', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .execute();
  await sql`create index review_share_links_project on review_share_links (project_id, id)`.execute(db);
  await db.schema
    .alterTable('review_comments')
    .addColumn('share_link_id', 'integer', (c) => c.references('review_share_links.id').onDelete('set null'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('review_comments').dropColumn('share_link_id').execute();
  await db.schema.dropTable('review_share_links').execute();
}
