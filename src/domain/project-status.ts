/** Project statuses (C§4, A§4) and how each audience names them. */
export const PROJECT_STATUSES = [
  'OPENED',
  'WAITING_FOR_EDITOR',
  'IN_EDITING',
  'IN_REVIEW',
  'PAUSED',
  'APPROVED',
  'ARCHIVED',
  'DELETED',
  'HIDDEN',
] as const;
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

/** The customer board's sections (C§2). */
export const BOARD_SECTIONS = {
  needsReview: ['IN_REVIEW'],
  editing: ['WAITING_FOR_EDITOR', 'IN_EDITING', 'PAUSED'],
  assembly: ['OPENED'],
} as const satisfies Record<string, readonly ProjectStatus[]>;
