import { sql } from 'kysely';
import type { DashboardSort } from '../../src/domain/contract/projects.ts';
import { STATUS_WORKFLOW_ORDER, type ProjectStatus } from '../../src/domain/project-status.ts';
import { MS_PER_MINUTE, SLA_MINUTES, businessClock } from '../../src/domain/sla-timer.ts';
import type { Db } from '../db/connect.ts';

/** A deleted organization's projects went with it (issue 9): not on any page. */
const LIVE_ORGANIZATION = sql`exists (select 1 from organizations o where o.id = p.organization_id and o.deleted_at is null)`;

/**
 * Ids of one page ordered by timer. Running projects are ordered by their stored deadline and
 * frozen ones by their stored minutes, each read from its own partial index and cut at
 * start + limit, then merged on the minutes each cell shows (⌈(deadline − clock(now)) / 1 min⌉, see businessClock): no per-row
 * expression over the whole table. On equal minutes a running timer goes first in ascending
 * order (it is the one that drops next), so the page is still in order when the cells tick.
 */
export async function pageIdsByTimer(db: Db, statuses: ProjectStatus[], descending: boolean, start: number, limit: number): Promise<number[]> {
  const direction = descending ? sql`desc` : sql`asc`;
  const reach = start + limit;
  const clockNow = businessClock(new Date());
  const { rows } = await sql<{ id: number }>`
    select id from (
      (select p.id, 0 as frozen, least(${SLA_MINUTES}, ceil((p.sla_deadline - ${clockNow}) / ${MS_PER_MINUTE}::numeric)) as t from projects p
        where p.sla_deadline is not null and p.status in (${sql.join(statuses)}) and ${LIVE_ORGANIZATION}
        order by p.sla_deadline ${direction}, p.id ${direction} limit ${reach})
      union all
      (select p.id, 1 as frozen, p.sla_frozen as t from projects p
        where p.sla_deadline is null and p.status in (${sql.join(statuses)}) and ${LIVE_ORGANIZATION}
        order by p.sla_frozen ${direction}, p.id ${direction} limit ${reach})
    ) merged
    order by t ${direction}, frozen ${direction}, id ${direction} offset ${start} limit ${limit}`.execute(db);
  return rows.map((r) => r.id);
}

/** The SQL that orders each sortable column but the timer; text compares case-insensitively (A§2). */
function sortExpression(sort: Exclude<DashboardSort, 'timer'>) {
  switch (sort) {
    case 'name':
      return sql`lower(p.name)`;
    case 'organization':
      return sql`lower(o.name)`;
    case 'status':
      // Workflow order, not the internal names (issue 12; src/domain/project-status.ts).
      return sql`case p.status ${sql.join(STATUS_WORKFLOW_ORDER.map((status, rank) => sql`when ${sql.lit(status)} then ${sql.lit(rank)}`), sql` `)} else ${sql.lit(STATUS_WORKFLOW_ORDER.length)} end`;
    case 'version':
      return sql`p.no_reviews`;
    case 'createdAt':
      return sql`p.created_at`;
  }
}

/** Which rows of the board to read: a page in `sort` order, or exactly `ids` (a timer page, in any order). */
export type DashboardPage = { ids: number[] } | { sort: Exclude<DashboardSort, 'timer'>; descending: boolean; start: number; limit: number };

/** The staff board's rows (A§2) of projects in `statuses` whose organization is live. */
export async function dashboardRows(db: Db, statuses: ProjectStatus[], page: DashboardPage) {
  const select = db
    .selectFrom('projects as p')
    .innerJoin('organizations as o', 'o.id', 'p.organizationId')
    .leftJoin('users as e', 'e.id', 'p.editorId')
    .select([
      'p.id',
      'p.name',
      'p.status',
      'p.statusBeforeHidden',
      'p.organizationId',
      'o.name as organizationName',
      'p.editorId',
      'e.firstName as editorFirstName',
      'e.lastName as editorLastName',
      'e.profilePictureUrl as editorPicture',
      'p.createdAt',
      'p.noReviews',
      'p.reviewLink',
      'p.latestSubmittedAt',
      'p.pausedAt',
      'p.totalPausedMinutes',
    ])
    .where('p.status', 'in', statuses)
    // A deleted organization's projects went with it (issue 9).
    .where('o.deletedAt', 'is', null);
  if ('ids' in page) return select.where('p.id', 'in', page.ids).execute();
  const direction = page.descending ? sql`desc` : sql`asc`;
  return select.orderBy(sql`${sortExpression(page.sort)} ${direction}, p.id ${direction}`).offset(page.start).limit(page.limit).execute();
}
