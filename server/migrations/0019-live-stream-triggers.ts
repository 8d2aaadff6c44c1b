import { sql, type Kysely } from 'kysely';

/**
 * Issue 36, items 3 and 7: what the database itself tells every instance's event streams
 * (server/events/), at commit, whoever wrote the row (the API, a script, psql).
 *
 * Names: a staff member's name or picture, an organization's name or deletion show with projects
 * (the staff board, project pages, a guest's page) but are no project's write, so no service
 * published them. Such a write now notifies `{ type: 'project', projectId: null }` on the events
 * channel: every open stream hears it and its page reads what it shows again. The payload is the
 * same for every row of a transaction (`now()` is the transaction's time), and PostgreSQL sends
 * identical notifications of one transaction once: a bulk rename is one event.
 *
 * Access: a user disabled, deleted, moved or given another role, or whose session version moved
 * (sign-out everywhere, password change or reset); a share link revoked, expired or deleted; an
 * organization deleted. Such a write notifies `{ access: { userId | shareLinkId | organizationId } }`,
 * which no client ever sees: each instance checks its streams of that user, link or organization
 * again and ends those whose access ended (server/events/hub.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function notify_live_names() returns trigger language plpgsql as $$
    begin
      perform pg_notify('cutdesk_events', json_build_object('type', 'project', 'projectId', null, 'at', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text);
      return null;
    end $$`.execute(db);
  await sql`
    create function notify_live_access() returns trigger language plpgsql as $$
    begin
      perform pg_notify('cutdesk_events', json_build_object('access', json_build_object(tg_argv[0], old.id))::text);
      return null;
    end $$`.execute(db);
  // Staff members only: they are the editors a project shows (customers' names show with no project list).
  await sql`
    create trigger users_live_names after update of first_name, last_name, profile_picture_url on users for each row
    when (new.organization_id is null and (old.first_name, old.last_name, old.profile_picture_url) is distinct from (new.first_name, new.last_name, new.profile_picture_url))
    execute function notify_live_names()`.execute(db);
  await sql`
    create trigger organizations_live_names after update of name, deleted_at on organizations for each row
    when ((old.name, old.deleted_at) is distinct from (new.name, new.deleted_at))
    execute function notify_live_names()`.execute(db);
  await sql`
    create trigger users_live_access after update of is_enabled, deleted_at, session_version, role, organization_id on users for each row
    when ((old.is_enabled, old.deleted_at, old.session_version, old.role, old.organization_id) is distinct from (new.is_enabled, new.deleted_at, new.session_version, new.role, new.organization_id))
    execute function notify_live_access('userId')`.execute(db);
  await sql`create trigger users_live_access_delete after delete on users for each row execute function notify_live_access('userId')`.execute(db);
  await sql`
    create trigger review_share_links_live_access after update of revoked_at, expires_at, project_id, version_id on review_share_links for each row
    when ((old.revoked_at, old.expires_at, old.project_id, old.version_id) is distinct from (new.revoked_at, new.expires_at, new.project_id, new.version_id))
    execute function notify_live_access('shareLinkId')`.execute(db);
  await sql`create trigger review_share_links_live_access_delete after delete on review_share_links for each row execute function notify_live_access('shareLinkId')`.execute(
    db,
  );
  await sql`
    create trigger organizations_live_access after update of deleted_at on organizations for each row
    when (old.deleted_at is distinct from new.deleted_at)
    execute function notify_live_access('organizationId')`.execute(db);
  await sql`create trigger organizations_live_access_delete after delete on organizations for each row execute function notify_live_access('organizationId')`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [trigger, table] of [
    ['users_live_names', 'users'],
    ['organizations_live_names', 'organizations'],
    ['users_live_access', 'users'],
    ['users_live_access_delete', 'users'],
    ['review_share_links_live_access', 'review_share_links'],
    ['review_share_links_live_access_delete', 'review_share_links'],
    ['organizations_live_access', 'organizations'],
    ['organizations_live_access_delete', 'organizations'],
  ]) {
    await sql.raw(`drop trigger ${trigger} on ${table}`).execute(db);
  }
  await sql`drop function notify_live_access()`.execute(db);
  await sql`drop function notify_live_names()`.execute(db);
}
