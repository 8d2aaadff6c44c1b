import { sql, type Kysely } from 'kysely';
import { US_FEDERAL_CALENDAR } from '../../src/domain/holiday-calendar.ts';
import { slaSortKey } from '../../src/domain/sla-timer.ts';
import type { ProjectStatus } from '../../src/domain/project-status.ts';

/**
 * Stored SLA sort keys (see businessClock in src/domain/sla-timer.ts) so the dashboard sorts
 * by timer in SQL across pages, plus indexes for the dashboard's sorts.
 * (Since migration 0020 the keys leave holidays out too; it stores every key again.)
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('sla_deadline', 'bigint').execute();
  await db.schema
    .alterTable('projects')
    .addColumn('sla_frozen', 'integer', (c) => c.notNull().defaultTo(2880))
    .execute();
  const rows = await sql<{ id: number; status: ProjectStatus; latest_submitted_at: Date | null; paused_at: Date | null; total_paused_minutes: number }>`
    select id, status, latest_submitted_at, paused_at, total_paused_minutes from projects`.execute(db);
  const now = new Date();
  for (const row of rows.rows) {
    const key = slaSortKey(
      { status: row.status, latestSubmittedAt: row.latest_submitted_at, pausedAt: row.paused_at, totalPausedMinutes: row.total_paused_minutes },
      now,
      US_FEDERAL_CALENDAR,
    );
    await sql`update projects set sla_deadline = ${key.deadline}, sla_frozen = ${key.frozen} where id = ${row.id}`.execute(db);
  }
  await sql`create index projects_status_created on projects (status, created_at desc, id desc)`.execute(db);
  // The timer sort reads running projects by deadline and frozen ones by minutes (list-dashboard.ts).
  await sql`create index projects_sla_running on projects (sla_deadline, id) where sla_deadline is not null`.execute(db);
  await sql`create index projects_sla_frozen on projects (sla_frozen, id) where sla_deadline is null`.execute(db);
  await sql`create index projects_status_name on projects (status, lower(name), id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists projects_sla_frozen`.execute(db);
  await sql`drop index if exists projects_sla_running`.execute(db);
  await sql`drop index if exists projects_status_name`.execute(db);
  await sql`drop index if exists projects_status_created`.execute(db);
  await db.schema.alterTable('projects').dropColumn('sla_frozen').execute();
  await db.schema.alterTable('projects').dropColumn('sla_deadline').execute();
}
