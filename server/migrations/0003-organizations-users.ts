import { sql, type Kysely } from 'kysely';

/**
 * Onboarding kit columns on organizations (A§2: kit ordered or not, kit type, order date),
 * one owner per organization, and the indexes the staff lists sort and filter by.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('organizations')
    .addColumn('kit_ordered', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('kit_type', 'text')
    .addColumn('kit_ordered_at', 'date')
    .execute();
  // Customers list (newest first) and onboarding tabs (by statusId).
  await sql`create index organizations_live_created on organizations (created_at desc, id desc) where deleted_at is null`.execute(db);
  await sql`create index organizations_status_created on organizations (status_id, created_at desc, id desc) where deleted_at is null`.execute(db);
  // Customers list sorted by "credits expire on".
  await sql`create index credits_end_date on credits (end_date)`.execute(db);
  // Editors and staff lists.
  await sql`create index users_role_created on users (role, created_at desc, id desc) where deleted_at is null`.execute(db);
  // Customers list sorted by the owner's name; the owner's e-mail already has users_email_unique.
  await sql`create index users_full_name on users (lower(first_name || ' ' || last_name)) where deleted_at is null`.execute(db);
  // Exactly one live owner per organization: the lists join the owner row.
  await sql`create unique index users_one_owner on users (organization_id) where role = 'OWNER' and deleted_at is null`.execute(db);
  await sql`create index impersonations_admin on impersonations (admin_id, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [
    'impersonations_admin',
    'users_one_owner',
    'users_full_name',
    'users_role_created',
    'credits_end_date',
    'organizations_status_created',
    'organizations_live_created',
  ]) {
    await db.schema.dropIndex(index).execute();
  }
  await db.schema.alterTable('organizations').dropColumn('kit_ordered').dropColumn('kit_type').dropColumn('kit_ordered_at').execute();
}
