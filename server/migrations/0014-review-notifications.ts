import { sql, type Kysely } from 'kysely';

/**
 * Issue 13, review e-mails. Each user chooses which review mails they get (`users.review_mail_*`,
 * all on by default). `review_mail_ledger` records every review mail as it is claimed, before it
 * is sent: its unique key (kind, project, version, user, day) lets exactly one instance insert
 * the row, so a mail goes out once however many instances run the jobs at the same time. The
 * digest's row also carries the moment it covers comments up to (`covered_until`): the next
 * digest of that user starts there (the digest cursor). Kinds without a project or day use 0 and ''.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('review_mail_ready', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('review_mail_reminder', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('review_mail_changes', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('review_mail_digest', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
  await db.schema
    .createTable('review_mail_ledger')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('ready', 'reminder', 'changes', 'digest')`))
    .addColumn('project_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('covered_until', 'timestamptz')
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('review_mail_ledger_once', ['kind', 'project_id', 'version', 'user_id', 'day'])
    .execute();
  await sql`create index review_mail_ledger_digest on review_mail_ledger (user_id, covered_until) where kind = 'digest'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('review_mail_ledger').execute();
  await db.schema
    .alterTable('users')
    .dropColumn('review_mail_ready')
    .dropColumn('review_mail_reminder')
    .dropColumn('review_mail_changes')
    .dropColumn('review_mail_digest')
    .execute();
}
