import { sql, type Kysely } from 'kysely';

/**
 * Issue 14 "API hot path": a number that moves whenever anything the staff board shows changes,
 * so a page of the board can be answered from memory for as long as the number stands
 * (server/services/board-pages.ts).
 *
 * What the board shows: every column of `projects`, an organization's name and whether it is
 * deleted, an editor's name and picture. A write to any of them bumps `board_version.version`
 * in the writing transaction itself, so the bump becomes visible exactly when the write does
 * (never before it, never without it): a reader that sees the old number cannot have missed a
 * committed change. Publishing an event after the write (server/events/bus.ts) is best-effort
 * and does not cover names and pictures; this does not depend on it.
 *
 * The bump is a deferred constraint trigger, so it runs at commit, once per transaction (a
 * transaction-local setting holding the transaction's id marks it done; a setting left by anyone
 * else never matches): the single row's lock is the last one a writing transaction takes and is
 * held only while it commits, so row writers cannot deadlock on it and wait on each other only
 * for that moment. TRUNCATE has no row triggers and a statement trigger cannot be deferred, so
 * it bumps at once; the only TRUNCATE in the code is move-data's, on a database no instance
 * serves yet.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table board_version (id boolean primary key default true check (id), version bigint not null)`.execute(db);
  await sql`insert into board_version (id, version) values (true, 1)`.execute(db);
  await sql`
    create function bump_board_version() returns trigger language plpgsql as $$
    begin
      if tg_level = 'ROW' and current_setting('cutdesk.board_bumped', true) = txid_current()::text then
        return null;
      end if;
      perform set_config('cutdesk.board_bumped', txid_current()::text, true);
      update board_version set version = version + 1;
      return null;
    end $$`.execute(db);
  const watched: [table: string, update: string][] = [
    ['projects', 'update'],
    ['organizations', 'update of name, deleted_at'],
    ['users', 'update of first_name, last_name, profile_picture_url, deleted_at'],
  ];
  for (const [table, update] of watched) {
    await sql
      .raw(
        `create constraint trigger ${table}_board_version after insert or ${update} or delete on ${table}
         deferrable initially deferred for each row execute function bump_board_version()`,
      )
      .execute(db);
    await sql
      .raw(`create trigger ${table}_board_version_truncate after truncate on ${table} for each statement execute function bump_board_version()`)
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['projects', 'organizations', 'users']) {
    await sql.raw(`drop trigger ${table}_board_version on ${table}`).execute(db);
    await sql.raw(`drop trigger ${table}_board_version_truncate on ${table}`).execute(db);
  }
  await sql`drop function bump_board_version()`.execute(db);
  await sql`drop table board_version`.execute(db);
}
