import { sql, type Kysely } from 'kysely';

/**
 * Issue 33 "couplings made explicit": the staff board sorts by an organization's name key
 * (migration 0021), so a write of that key must move the board's version (migration 0017) like
 * a write of the name does; otherwise a key written again (a back-fill under a new collation
 * rule) would leave instances answering pages from memory in the old order.
 * tests/server/board-pages.test.ts fails when the board reads a column no trigger watches.
 */
async function watchOrganizations(db: Kysely<unknown>, columns: string): Promise<void> {
  await sql`drop trigger organizations_board_version on organizations`.execute(db);
  await sql
    .raw(
      `create constraint trigger organizations_board_version after insert or update of ${columns} or delete on organizations
       deferrable initially deferred for each row execute function bump_board_version()`,
    )
    .execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await watchOrganizations(db, 'name, deleted_at, name_sort_key');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await watchOrganizations(db, 'name, deleted_at');
}
