import { sql, type Kysely } from 'kysely';
import { US_FEDERAL_CALENDAR } from '../../src/domain/holiday-calendar.ts';
import { slaSortKey } from '../../src/domain/sla-timer.ts';
import type { ProjectStatus } from '../../src/domain/project-status.ts';

/**
 * The stored SLA deadline moves from business minutes to business milliseconds (see
 * businessClock in src/domain/sla-timer.ts): minutes tied projects submitted seconds apart
 * and the dashboard's timer sort could list a 47:58 above a 47:59. Every key is recomputed.
 * (Since migration 0020 the keys leave holidays out too; it stores every key again.)
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const rows = await sql<{ id: number; status: ProjectStatus; latest_submitted_at: Date | null; paused_at: Date | null; total_paused_minutes: number }>`
    select id, status, latest_submitted_at, paused_at, total_paused_minutes from projects where sla_deadline is not null`.execute(db);
  const now = new Date();
  for (const row of rows.rows) {
    const key = slaSortKey(
      { status: row.status, latestSubmittedAt: row.latest_submitted_at, pausedAt: row.paused_at, totalPausedMinutes: row.total_paused_minutes },
      now,
      US_FEDERAL_CALENDAR,
    );
    await sql`update projects set sla_deadline = ${key.deadline}, sla_frozen = ${key.frozen} where id = ${row.id}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update projects set sla_deadline = sla_deadline / 60000 where sla_deadline is not null`.execute(db);
}
