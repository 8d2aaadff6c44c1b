import { sql } from 'kysely';
import type { DashboardSort } from '../../src/domain/contract/projects.ts';
import { STATUS_WORKFLOW_ORDER, type ProjectStatus } from '../../src/domain/project-status.ts';
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
