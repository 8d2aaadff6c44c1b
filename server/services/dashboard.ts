import type { Infer } from 'superstruct';
import type { DashboardQueryStruct, DashboardRow } from '../../src/domain/contract/projects.ts';
import { restoreTarget } from '../../src/domain/project-rules.ts';
import type { ProjectStatus } from '../../src/domain/project-status.ts';
import type { Db } from '../db/connect.ts';
import { dashboardRows, pageIdsByTimer } from '../repositories/dashboard.ts';

const DEFAULT_LIMIT = 30;

/** A§2 tabs: Active (every status but ARCHIVED, OPENED, HIDDEN), Completed, Deleted. */
const TAB_STATUSES: Record<'active' | 'archived' | 'hidden', ProjectStatus[]> = {
  active: ['WAITING_FOR_EDITOR', 'IN_EDITING', 'IN_REVIEW', 'PAUSED', 'APPROVED', 'DELETED'],
  archived: ['ARCHIVED'],
  hidden: ['HIDDEN'],
};

/** A§7 GET projects: one page of the staff board, sorted on the server so the order holds across pages. */
export async function dashboardPage(db: Db, query: Infer<typeof DashboardQueryStruct>): Promise<DashboardRow[]> {
  const tab = query.hidden ? 'hidden' : query.archived ? 'archived' : 'active';
  const statuses = TAB_STATUSES[tab];
  const descending = query.order === 'desc';
  const sort = query.sort ?? 'createdAt';
  const start = query.start ?? 0;
  const limit = query.limit ?? DEFAULT_LIMIT;
  let rows;
  if (sort === 'timer') {
    const timerIds = await pageIdsByTimer(db, statuses, descending, start, limit);
    if (timerIds.length === 0) return [];
    const found = await dashboardRows(db, statuses, { ids: timerIds });
    rows = timerIds.map((id) => found.find((r) => r.id === id)!).filter(Boolean);
  } else {
    rows = await dashboardRows(db, statuses, { sort, descending, start, limit });
  }
  return rows.map((r) => ({
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
    // Deleted Projects: where Restore takes the project, said before confirming (issue 12).
    ...(r.status === 'HIDDEN' ? { restoresTo: restoreTarget(r.statusBeforeHidden) } : {}),
  }));
}
