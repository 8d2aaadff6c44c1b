import { sql, type Kysely } from 'kysely';
import { businessCalendar, type HolidayEdit } from '../../src/domain/holiday-calendar.ts';
import type { ProjectStatus } from '../../src/domain/project-status.ts';
import { slaSortKey } from '../../src/domain/sla-timer.ts';

/**
 * Issue 36 item 11, the holiday calendar: business days are Monday–Friday New York dates that are
 * not holidays, the US federal holidays by default (src/domain/holiday-calendar.ts). What a
 * superadmin changed is kept as edits relative to that rule, one row per date: a date `added`
 * (with its name) or a default holiday `removed` (its observed date; restoring it deletes the
 * row). No list per year: the rule covers every year to come without anyone adding them.
 *
 * The business clock the stored SLA deadlines are counted on (businessClock) now leaves the
 * federal holidays out, so every project's keys are stored again with the default calendar
 * (there are no edits yet).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table holiday_edits (
      date text primary key check (date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
      name text not null,
      kind text not null check (kind in ('added', 'removed')),
      edited_by integer references users (id) on delete set null,
      created_at timestamptz not null default now()
    )`.execute(db);
  const calendar = businessCalendar([] satisfies HolidayEdit[]);
  const rows = await sql<{
    id: number;
    status: ProjectStatus;
    latest_submitted_at: Date | null;
    paused_at: Date | null;
    total_paused_minutes: number;
    sla_deadline: string | null;
    sla_frozen: number;
  }>`
    select id, status, latest_submitted_at, paused_at, total_paused_minutes, sla_deadline::text, sla_frozen from projects where latest_submitted_at is not null`.execute(
    db,
  );
  const now = new Date();
  for (const row of rows.rows) {
    const key = slaSortKey(
      { status: row.status, latestSubmittedAt: row.latest_submitted_at, pausedAt: row.paused_at, totalPausedMinutes: row.total_paused_minutes },
      now,
      calendar,
    );
    if (String(key.deadline) === String(row.sla_deadline) && key.frozen === row.sla_frozen) continue;
    await sql`update projects set sla_deadline = ${key.deadline}, sla_frozen = ${key.frozen} where id = ${row.id}`.execute(db);
  }
  // The board's version trigger (migration 0017) is deferred: these writes leave its events pending
  // until commit, and the migrator runs every pending migration in one transaction, where a later
  // migration's ALTER TABLE of the table would fail ("pending trigger events"). They fire now.
  await sql`set constraints all immediate`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table holiday_edits`.execute(db);
}
