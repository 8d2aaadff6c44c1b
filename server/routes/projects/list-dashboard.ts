import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { DashboardQueryStruct, type DashboardRow, type DashboardSort } from '../../../src/domain/contract/projects.ts';
import type { ProjectStatus } from '../../../src/domain/project-status.ts';
import { STAFF_ROLES } from '../../../src/domain/roles.ts';
import { pageIdsByTimer } from '../../repositories/dashboard.ts';
import { parse } from '../../http-error.ts';
import { requireRole } from '../../plugins/auth.ts';

const DEFAULT_LIMIT = 30;

/** A§2 tabs: Active (every status but ARCHIVED, OPENED, HIDDEN), Completed, Deleted. */
const TAB_STATUSES: Record<'active' | 'archived' | 'hidden', ProjectStatus[]> = {
  active: ['WAITING_FOR_EDITOR', 'IN_EDITING', 'IN_REVIEW', 'PAUSED', 'APPROVED', 'DELETED'],
  archived: ['ARCHIVED'],
  hidden: ['HIDDEN'],
};

/** The SQL that orders each sortable column but the timer; text compares case-insensitively (A§2). */
function sortExpression(sort: Exclude<DashboardSort, 'timer'>) {
  switch (sort) {
    case 'name':
      return sql`lower(p.name)`;
    case 'organization':
      return sql`lower(o.name)`;
    case 'status':
      return sql`p.status`;
    case 'version':
      return sql`p.no_reviews`;
    case 'createdAt':
      return sql`p.created_at`;
  }
}

export default async function dashboardRoute(app: FastifyInstance) {
  // A§7 GET projects?start&limit&active&archived&hidden, with server-side sorting that holds across pages.
  app.get('/projects', async (request) => {
    await requireRole(request, STAFF_ROLES);
    const query = parse(DashboardQueryStruct, request.query);
    const tab = query.hidden ? 'hidden' : query.archived ? 'archived' : 'active';
    const direction = query.order === 'desc' ? sql`desc` : sql`asc`;
    const sort = query.sort ?? 'createdAt';
    const start = query.start ?? 0;
    const limit = query.limit ?? DEFAULT_LIMIT;
    const timerIds = sort === 'timer' ? await pageIdsByTimer(app.ctx.db, TAB_STATUSES[tab], query.order === 'desc', start, limit) : null;
    if (timerIds?.length === 0) return { data: { projects: [] } };
    let select = app.ctx.db
      .selectFrom('projects as p')
      .innerJoin('organizations as o', 'o.id', 'p.organizationId')
      .leftJoin('users as e', 'e.id', 'p.editorId')
      .select([
        'p.id',
        'p.name',
        'p.status',
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
      .where('p.status', 'in', TAB_STATUSES[tab])
      // A deleted organization's projects went with it (issue 9).
      .where('o.deletedAt', 'is', null);
    select = timerIds
      ? select.where('p.id', 'in', timerIds)
      : select.orderBy(sql`${sortExpression(sort as Exclude<DashboardSort, 'timer'>)} ${direction}, p.id ${direction}`).offset(start).limit(limit);
    const found = await select.execute();
    const rows = timerIds ? timerIds.map((id) => found.find((r) => r.id === id)!).filter(Boolean) : found;
    const projects: DashboardRow[] = rows.map((r) => ({
      id: r.id,
      name: r.name,
      status: { name: r.status },
      organization: { id: r.organizationId, name: r.organizationName },
      editor: r.editorId ? { id: r.editorId, firstName: r.editorFirstName ?? '', lastName: r.editorLastName ?? '', profilePictureUrl: r.editorPicture ?? null } : null,
      createdAt: r.createdAt.toISOString(),
      noReviews: r.noReviews,
      reviewLink: r.reviewLink,
      latestSubmittedAt: r.latestSubmittedAt?.toISOString() ?? null,
      pausedAt: r.pausedAt?.toISOString() ?? null,
      totalPausedMinutes: r.totalPausedMinutes,
    }));
    return { data: { projects } };
  });
}
