/** Project statuses (C§4, A§4) and how each audience names them. */
export const PROJECT_STATUSES = ['OPENED', 'WAITING_FOR_EDITOR', 'IN_EDITING', 'IN_REVIEW', 'PAUSED', 'APPROVED', 'ARCHIVED', 'DELETED', 'HIDDEN'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

export const STAFF_STATUS_LABELS: Record<ProjectStatus, string> = {
  OPENED: 'NOT PUBLISHED',
  WAITING_FOR_EDITOR: 'NO EDITOR',
  IN_EDITING: 'IN PROGRESS',
  IN_REVIEW: 'PENDING REVIEW',
  PAUSED: 'PAUSED',
  APPROVED: 'FINISHED',
  ARCHIVED: 'FINISHED',
  DELETED: 'DELETED',
  HIDDEN: 'DELETED',
};

export const CUSTOMER_STATUS_LABELS: Record<ProjectStatus, string> = {
  OPENED: 'Assembly',
  WAITING_FOR_EDITOR: 'Editing',
  IN_EDITING: 'Editing',
  IN_REVIEW: 'Needs review',
  PAUSED: 'Editing',
  APPROVED: 'Approved',
  ARCHIVED: 'Archived',
  DELETED: 'Deleted',
  HIDDEN: 'Deleted',
};

/**
 * The order the staff board sorts statuses in (issue 12): the workflow's, the way a project
 * moves (NOT PUBLISHED, NO EDITOR, IN PROGRESS, PAUSED, PENDING REVIEW, FINISHED, DELETED), not
 * the internal names' alphabet. The labels' alphabet would not do either: two statuses share
 * FINISHED and two DELETED, and it would put DELETED first and NO EDITOR after IN PROGRESS.
 * Ascending puts the projects that need staff first.
 */
export const STATUS_WORKFLOW_ORDER = [
  'OPENED',
  'WAITING_FOR_EDITOR',
  'IN_EDITING',
  'PAUSED',
  'IN_REVIEW',
  'APPROVED',
  'ARCHIVED',
  'DELETED',
  'HIDDEN',
] as const satisfies readonly ProjectStatus[];

/** A status's place in STATUS_WORKFLOW_ORDER (0 first). */
export function statusWorkflowRank(status: ProjectStatus): number {
  return (STATUS_WORKFLOW_ORDER as readonly ProjectStatus[]).indexOf(status);
}

/** The customer board's sections (C§2). */
export const BOARD_SECTIONS = {
  needsReview: ['IN_REVIEW'],
  editing: ['WAITING_FOR_EDITOR', 'IN_EDITING', 'PAUSED'],
  assembly: ['OPENED'],
} as const satisfies Record<string, readonly ProjectStatus[]>;
