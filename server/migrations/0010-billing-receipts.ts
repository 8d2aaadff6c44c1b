import { sql, type Kysely } from 'kysely';

/**
 * Issue 11, receipts and dunning e-mails. Each paid invoice is a receipt to send, each failed
 * one a "your renewal payment failed" notice. The e-mail is sent after the charge's transaction
 * commits, so it needs a state of its own: `mail_sent_at` once the mailer took it,
 * `mail_claimed_at` while an instance is sending it (a claim older than a few minutes is
 * abandoned and taken again by the billing job). A mail that cannot be sent is retried; the
 * charge is never touched again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('invoices').addColumn('mail_sent_at', 'timestamptz').addColumn('mail_claimed_at', 'timestamptz').execute();
  // Invoices from before this migration are not mailed now, months after the charge.
  await sql`update invoices set mail_sent_at = coalesce(paid_at, created_at)`.execute(db);
  await sql`create index invoices_mail_due on invoices (created_at) where mail_sent_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists invoices_mail_due`.execute(db);
  await db.schema.alterTable('invoices').dropColumn('mail_claimed_at').dropColumn('mail_sent_at').execute();
}
