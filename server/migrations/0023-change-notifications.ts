import { sql, type Kysely } from 'kysely';

/**
 * Issue 34, "board at 50 connections": what an instance keeps in memory of rows every request
 * reads (a session's user, the board's version: server/services/remembered-rows.ts) is dropped
 * when the database says the row changed, whoever wrote it (the API, a script, psql). The
 * notification goes on `cutdesk_changes` at commit, never for a rolled-back write:
 * - `board`: the board's version row was written (migration 0017 moves it with every write the
 *   board shows; a statement trigger, so one notification per transaction);
 * - `user:<id>`: that user's row was updated or deleted (identical payloads of one transaction
 *   are sent once, so a bulk update of one user is one notification);
 * - `users`: the table was truncated (every user forgotten).
 * A new user needs none: a missing row is never kept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function notify_changed() returns trigger language plpgsql as $$
    begin
      if tg_level = 'ROW' then
        perform pg_notify('cutdesk_changes', tg_argv[0] || ':' || old.id);
      else
        perform pg_notify('cutdesk_changes', tg_argv[0]);
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger board_version_changed after insert or update or delete or truncate on board_version
    for each statement execute function notify_changed('board')`.execute(db);
  await sql`create trigger users_changed after update or delete on users for each row execute function notify_changed('user')`.execute(db);
  await sql`create trigger users_truncated after truncate on users for each statement execute function notify_changed('users')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger users_truncated on users`.execute(db);
  await sql`drop trigger users_changed on users`.execute(db);
  await sql`drop trigger board_version_changed on board_version`.execute(db);
  await sql`drop function notify_changed()`.execute(db);
}
