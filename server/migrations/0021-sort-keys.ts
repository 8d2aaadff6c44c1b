import { sql, type Kysely } from 'kysely';
import { collationKey, phoneKey } from '../../src/domain/collation.ts';

/**
 * Issue 36 item 8, lists sort the way people expect: the text the server's lists sort by gets a
 * sort key made in JavaScript by src/domain/collation.ts (accents and case folded, numbers by
 * value, empty as null), compared byte by byte (`COLLATE "C"` on the column), so PGlite, which
 * has no ICU, and PostgreSQL give one order (docs/decisions.md). Projects' and organizations'
 * names (the staff board), and the owner's full name, e-mail and phone (the customers list).
 * From here on every write through Kysely sets the key with its text (server/db/sort-keys.ts);
 * this fills the keys of the rows already there, with the same functions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['projects', 'organizations']) {
    await sql`alter table ${sql.table(table)} add column name_sort_key text collate "C"`.execute(db);
    const { rows } = await sql<{ id: number; name: string }>`select id, name from ${sql.table(table)}`.execute(db);
    for (const row of rows) await sql`update ${sql.table(table)} set name_sort_key = ${collationKey(row.name)} where id = ${row.id}`.execute(db);
  }
  await sql`alter table users add column name_sort_key text collate "C", add column email_sort_key text collate "C", add column phone_sort_key text collate "C"`.execute(
    db,
  );
  // One-word aliases: the app's connection camelCases the names of result columns.
  const { rows } = await sql<{
    id: number;
    first: string;
    last: string;
    email: string;
    phone: string | null;
  }>`select id, first_name as first, last_name as last, email, phone from users`.execute(db);
  for (const row of rows) {
    await sql`update users set name_sort_key = ${collationKey(`${row.first} ${row.last}`)}, email_sort_key = ${collationKey(row.email)}, phone_sort_key = ${phoneKey(row.phone)} where id = ${row.id}`.execute(
      db,
    );
  }
  // The board's version trigger (migration 0017) is deferred: these writes leave its events pending
  // until commit, and the migrator runs every pending migration in one transaction, where a later
  // migration's ALTER TABLE of the table would fail ("pending trigger events"). They fire now.
  await sql`set constraints all immediate`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop column name_sort_key, drop column email_sort_key, drop column phone_sort_key`.execute(db);
  await sql`alter table organizations drop column name_sort_key`.execute(db);
  await sql`alter table projects drop column name_sort_key`.execute(db);
}
