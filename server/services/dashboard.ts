import type { Infer } from 'superstruct';
import type { DashboardQueryStruct, DashboardRow } from '../../src/domain/contract/projects.ts';
import { restoreTarget } from '../../src/domain/project-rules.ts';
import type { ProjectStatus } from '../../src/domain/project-status.ts';
import type { Db } from '../db/connect.ts';
import { badRequest } from '../http-error.ts';
import { dashboardRows, type DashboardPage, type DashboardRows } from '../repositories/dashboard.ts';
import { CURSOR_MESSAGES, decodeCursor, encodeCursor } from './dashboard-cursor.ts';

const DEFAULT_LIMIT = 30;

/** A§2 tabs: Active (every status but ARCHIVED, OPENED, HIDDEN), Completed, Deleted. */
const TAB_STATUSES: Record<'active' | 'archived' | 'hidden', ProjectStatus[]> = {
  active: ['WAITING_FOR_EDITOR', 'IN_EDITING', 'IN_REVIEW', 'PAUSED', 'APPROVED', 'DELETED'],
  archived: ['ARCHIVED'],
  hidden: ['HIDDEN'],
};

/** Which page a query asks for, its defaults filled in: the tab, sort and order a cursor belongs to, and the page's size. */
export function boardQueryScope(query: Infer<typeof DashboardQueryStruct>) {
  const tab = query.hidden ? 'hidden' : query.archived ? 'archived' : 'active';
  return { tab, sort: query.sort ?? 'createdAt', order: query.order === 'desc' ? 'desc' : 'asc', limit: query.limit ?? DEFAULT_LIMIT } as const;
}

/** A§7 GET projects: one page of the staff board, sorted on the server so the order holds across pages. */
export async function dashboardPage(db: Db, query: Infer<typeof DashboardQueryStruct>): Promise<{ projects: DashboardRow[]; nextCursor: string | null }> {
  const { tab, sort, order, limit } = boardQueryScope(query);
  const statuses = TAB_STATUSES[tab];
  const descending = order === 'desc';
  const scope = { tab, sort, order } as const;
  if (query.after !== undefined && query.start !== undefined) throw badRequest(CURSOR_MESSAGES.both, { fields: { after: CURSOR_MESSAGES.both } });
  // Issue 14: `after` (the cursor of the page before) costs the same at any depth; `start` (A§7) still works.
  const after = query.after === undefined ? null : decodeCursor(query.after, scope);
  const position = after ? { after } : { start: query.start ?? 0 };
  // One statement per page (issue 14): by timer, the merged index cut is joined to the rows.
  const { rows, next } = await dashboardRows(db, statuses, { sort, descending, position, limit } as DashboardPage);
  // A short page is the last one.
  const nextCursor = rows.length < limit || next === null ? null : encodeCursor(scope, next);
  return { projects: toRows(rows), nextCursor };
}

function toRows(rows: DashboardRows): DashboardRow[] {
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    status: { name: r.status },
    organization: { id: r.organizationId, name: r.organizationName },
    editor: r.editorId
      ? { id: r.editorId, firstName: r.editorFirstName ?? '', lastName: r.editorLastName ?? '', profilePictureUrl: r.editorPicture ?? null }
      : null,
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
