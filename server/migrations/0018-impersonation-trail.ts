import { sql, type Kysely } from 'kysely';

/**
 * Issue 36 item 10, the Log In As trail: each impersonation row becomes a session a superadmin
 * can read (GET impersonations): the customer user signed in as, the client address that asked,
 * when the session's token expires (moved by each refresh of it) and when the staff member
 * ended it (Admin logout, or signing out while impersonating). A session with no end recorded
 * ended by expiry once `expires_at` has passed. Nothing secret is kept: no token, only the
 * row's id, which the impersonation token carries to name its session.
 * Rows recorded before this migration keep nulls: their customer user, address and expiry were
 * never recorded.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('impersonations')
    .addColumn('customer_user_id', 'integer', (c) => c.references('users.id'))
    .addColumn('client_address', 'text')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('ended_at', 'timestamptz')
    .execute();
  // The superadmins' list, newest first.
  await sql`create index impersonations_created on impersonations (created_at desc, id desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index impersonations_created`.execute(db);
  await db.schema
    .alterTable('impersonations')
    .dropColumn('customer_user_id')
    .dropColumn('client_address')
    .dropColumn('expires_at')
    .dropColumn('ended_at')
    .execute();
}
