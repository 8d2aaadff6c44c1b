import { sql } from 'kysely';
import type { ProjectStatus } from '../../src/domain/project-status.ts';
import { SLA_MINUTES, businessClock } from '../../src/domain/sla-timer.ts';
import type { Db } from '../db/connect.ts';

/** A deleted organization's projects went with it (issue 9): not on any page. */
const LIVE_ORGANIZATION = sql`exists (select 1 from organizations o where o.id = p.organization_id and o.deleted_at is null)`;

/**
 * Ids of one page ordered by timer. Running projects are ordered by their stored deadline and
 * frozen ones by their stored minutes, each read from its own partial index and cut at
 * start + limit, then merged: no per-row expression over the whole table.
 */
export async function pageIdsByTimer(db: Db, statuses: ProjectStatus[], descending: boolean, start: number, limit: number): Promise<number[]> {
  const direction = descending ? sql`desc` : sql`asc`;
  const reach = start + limit;
  const clockNow = businessClock(new Date());
  const { rows } = await sql<{ id: number }>`
    select id from (
      (select p.id, least(${SLA_MINUTES}, p.sla_deadline - ${clockNow}) as t from projects p
        where p.sla_deadline is not null and p.status in (${sql.join(statuses)}) and ${LIVE_ORGANIZATION}
        order by p.sla_deadline ${direction}, p.id ${direction} limit ${reach})
      union all
      (select p.id, p.sla_frozen as t from projects p
        where p.sla_deadline is null and p.status in (${sql.join(statuses)}) and ${LIVE_ORGANIZATION}
        order by p.sla_frozen ${direction}, p.id ${direction} limit ${reach})
    ) merged
    order by t ${direction}, id ${direction} offset ${start} limit ${limit}`.execute(db);
  return rows.map((r) => r.id);
}

