import type { LinkField } from './contract/projects.ts';
import type { FinalPreviewState } from './media.ts';
import type { ProjectStatus } from './project-status.ts';
import { isCustomerRole, isManagerRole, isStaffRole, type RoleName } from './roles.ts';

/**
 * The project state machine of C§4 and A§4: who may do what in which status, and where it
 * leads. The UI hides what this refuses; the server refuses it with 409 (or 403 for a role).
 */
export const PROJECT_ACTIONS = [
  'edit-brief',
  'rename',
  'delete',
  'duplicate',
  'send-to-editing',
  'submit-revision',
  'approve',
  'archive',
  'hide',
  'restore',
  'pause',
  'resume',
  'send-to-review',
  'restore-to-review',
  'assign-editor',
  'unassign-editor',
  'set-review-period',
  'change-assets',
] as const;
export type ProjectAction = (typeof PROJECT_ACTIONS)[number];

export type Decision = { allowed: true; next: ProjectStatus | null } | { allowed: false; status: 403 | 409; message: string };

export interface ProjectFacts {
  status: ProjectStatus;
  /** Set once staff delivered a final video preview. */
  hasFinalPreview: boolean;
  /**
   * The delivered final video's preview as the media pipeline reports it (issue 36): send to
   * review needs it 'ready', the cut the customer will play. Absent: not known to be ready.
   */
  finalPreview?: FinalPreviewState;
  hasEditor: boolean;
  /** The status a HIDDEN (staff-deleted) project had before it was deleted; null when unknown. */
  statusBeforeHidden?: ProjectStatus | null;
}

/**
 * A§3 send to review, "enabled only when … a final video preview exists" (issue 36): a final
 * video was delivered and its preview is ready, so the customer plays the cut that was sent,
 * never "being processed" or the earlier cut. Null when it may go; otherwise the reason a
 * person reads (the button's hint, the server's 409).
 */
export function sendToReviewBlocker(facts: Pick<ProjectFacts, 'hasFinalPreview' | 'finalPreview'>): string | null {
  if (!facts.hasFinalPreview || facts.finalPreview === 'none') return RULE_MESSAGES.needsPreview;
  if (facts.finalPreview === 'ready') return null;
  if (facts.finalPreview === 'failed') return RULE_MESSAGES.previewFailed;
  return RULE_MESSAGES.previewProcessing;
}

/**
 * Where Restore takes a staff-deleted project (issue 12): back to the status it had before it
 * was deleted (a paused project comes back paused, with its version and video). A project
 * deleted before that status was remembered goes where A§4 says, ARCHIVED (FINISHED).
 */
export function restoreTarget(statusBeforeHidden: ProjectStatus | null | undefined): ProjectStatus {
  return statusBeforeHidden && statusBeforeHidden !== 'HIDDEN' ? statusBeforeHidden : 'ARCHIVED';
}

export const RULE_MESSAGES = {
  archiveNeedsApproval: 'Project is missing final video or it is not approved by client.',
  notInStatus: (action: string, label: string) => `This project cannot be ${action} while it is ${label}.`,
  role: 'You do not have permission to do this.',
  needsPreview: 'Upload the final video before sending the project to review.',
  previewProcessing: 'Available once the final video is processed.',
  previewFailed: 'The final video could not be processed. Upload it again to send the project to review.',
  editorAssetsLink: 'Editors cannot change the organization assets link.',
} as const;

const DISPLAY: Record<ProjectStatus, string> = {
  OPENED: 'in assembly',
  WAITING_FOR_EDITOR: 'waiting for an editor',
  IN_EDITING: 'in editing',
  IN_REVIEW: 'in review',
  PAUSED: 'paused',
  APPROVED: 'approved',
  ARCHIVED: 'archived',
  DELETED: 'deleted',
  HIDDEN: 'deleted',
};

const VERB: Record<ProjectAction, string> = {
  'edit-brief': 'edited',
  rename: 'renamed',
  delete: 'deleted',
  duplicate: 'duplicated',
  'send-to-editing': 'sent to editing',
  'submit-revision': 'sent back for changes',
  approve: 'approved',
  archive: 'completed',
  hide: 'deleted',
  restore: 'restored',
  pause: 'paused',
  resume: 'resumed',
  'send-to-review': 'sent to review',
  'restore-to-review': 'restored to review',
  'assign-editor': 'assigned an editor',
  'unassign-editor': 'left without an editor',
  'set-review-period': 'given a review period',
  'change-assets': 'changed',
};

/** Statuses in which staff may take the editor off a project (issue 36): while it is being edited. */
export const EDITOR_REMOVABLE_STATUSES: readonly ProjectStatus[] = ['IN_EDITING'];
/** Statuses in which editor assignment is locked (FINISHED, NOT PUBLISHED, DELETED). */
export const EDITOR_LOCKED_STATUSES: readonly ProjectStatus[] = ['APPROVED', 'ARCHIVED', 'OPENED', 'DELETED', 'HIDDEN'];
/** Statuses in which staff may upload the final video (A§4). */
export const STAFF_UPLOAD_BLOCKED: readonly ProjectStatus[] = ['OPENED', 'WAITING_FOR_EDITOR', 'DELETED', 'HIDDEN'];
/** Statuses a customer sees at all (DELETED and HIDDEN are gone for them). */
export const CUSTOMER_VISIBLE: readonly ProjectStatus[] = ['OPENED', 'WAITING_FOR_EDITOR', 'IN_EDITING', 'IN_REVIEW', 'PAUSED', 'APPROVED', 'ARCHIVED'];

const allow = (next: ProjectStatus | null = null): Decision => ({ allowed: true, next });

type Audience = 'customer' | 'manager' | 'staff' | 'any';

interface Rule {
  who: Audience;
  from: readonly ProjectStatus[] | 'any-visible' | 'any';
  next?: (facts: ProjectFacts) => ProjectStatus | null;
  extra?: (facts: ProjectFacts) => Decision | null;
}

const RULES: Record<ProjectAction, Rule> = {
  'edit-brief': { who: 'customer', from: ['OPENED'] },
  // Staff rename too (A§2 inline title); the name is locked once the project is finished or gone.
  rename: { who: 'any', from: ['OPENED', 'WAITING_FOR_EDITOR', 'IN_EDITING', 'IN_REVIEW', 'PAUSED'] },
  delete: { who: 'customer', from: ['OPENED'], next: () => 'DELETED' },
  duplicate: { who: 'customer', from: 'any-visible', next: () => 'OPENED' },
  'send-to-editing': { who: 'customer', from: ['OPENED'], next: () => 'WAITING_FOR_EDITOR' },
  'submit-revision': { who: 'customer', from: ['IN_REVIEW'], next: (f) => (f.hasEditor ? 'IN_EDITING' : 'WAITING_FOR_EDITOR') },
  approve: { who: 'customer', from: ['IN_REVIEW'], next: () => 'APPROVED' },
  archive: {
    who: 'manager',
    from: 'any',
    next: () => 'ARCHIVED',
    extra: (f) => (f.status === 'APPROVED' && f.hasFinalPreview ? null : { allowed: false, status: 403, message: RULE_MESSAGES.archiveNeedsApproval }),
  },
  hide: { who: 'manager', from: ['WAITING_FOR_EDITOR', 'IN_EDITING', 'IN_REVIEW', 'PAUSED', 'APPROVED', 'ARCHIVED', 'DELETED'], next: () => 'HIDDEN' },
  restore: { who: 'manager', from: ['HIDDEN'], next: (f) => restoreTarget(f.statusBeforeHidden) },
  pause: { who: 'manager', from: ['IN_EDITING'], next: () => 'PAUSED' },
  resume: { who: 'manager', from: ['PAUSED'], next: () => 'IN_EDITING' },
  'send-to-review': {
    who: 'manager',
    from: ['IN_EDITING', 'PAUSED'],
    next: () => 'IN_REVIEW',
    extra: (f) => {
      const blocker = sendToReviewBlocker(f);
      return blocker ? { allowed: false, status: 409, message: blocker } : null;
    },
  },
  'restore-to-review': { who: 'manager', from: ['APPROVED'], next: () => 'IN_REVIEW' },
  'assign-editor': {
    who: 'manager',
    from: ['WAITING_FOR_EDITOR', 'IN_EDITING', 'IN_REVIEW', 'PAUSED'],
    next: (f) => (f.status === 'WAITING_FOR_EDITOR' ? 'IN_EDITING' : null),
  },
  // Issue 36: an editor taken off a project being edited (ill, reassigned, to be deleted) leaves it
  // waiting for the next one; from review, pause or later the editor stays (changes go back to them).
  'unassign-editor': { who: 'manager', from: EDITOR_REMOVABLE_STATUSES, next: () => 'WAITING_FOR_EDITOR' },
  'set-review-period': { who: 'manager', from: ['IN_REVIEW'] },
  // Customers change assets only while assembling (C§4); staff upload per STAFF_UPLOAD_BLOCKED.
  'change-assets': { who: 'customer', from: ['OPENED'] },
};

function roleFits(who: Audience, role: RoleName): boolean {
  if (who === 'customer') return isCustomerRole(role);
  if (who === 'manager') return isManagerRole(role);
  if (who === 'staff') return isStaffRole(role);
  return true;
}

function statusFits(from: Rule['from'], status: ProjectStatus): boolean {
  if (from === 'any') return true;
  if (from === 'any-visible') return CUSTOMER_VISIBLE.includes(status);
  return from.includes(status);
}

/** May `role` do `action` to a project with these facts, and which status follows? */
export function decide(action: ProjectAction, role: RoleName, facts: ProjectFacts): Decision {
  const rule = RULES[action];
  if (!roleFits(rule.who, role)) return { allowed: false, status: 403, message: RULE_MESSAGES.role };
  // The status first: "cannot be sent to review while it is in review" says more than the video's state.
  if (!statusFits(rule.from, facts.status)) {
    return { allowed: false, status: 409, message: RULE_MESSAGES.notInStatus(VERB[action], DISPLAY[facts.status]) };
  }
  const extra = rule.extra?.(facts);
  if (extra) return extra;
  return allow(rule.next?.(facts) ?? null);
}

/** Convenience for the UI: true when the action would be allowed. */
export function can(action: ProjectAction, role: RoleName, facts: ProjectFacts): boolean {
  return decide(action, role, facts).allowed;
}

/**
 * A§2, A§8: staff edit a project's four links (any status); customers none; an EDITOR every
 * link but the organization-assets one. The server refuses with 403, the UI disables the row.
 */
export function decideLinkEdit(role: RoleName, field: LinkField): Decision {
  if (!isStaffRole(role)) return { allowed: false, status: 403, message: RULE_MESSAGES.role };
  if (role === 'EDITOR' && field === 'assetsLink') return { allowed: false, status: 403, message: RULE_MESSAGES.editorAssetsLink };
  return allow();
}

/** Convenience for the UI: may `role` edit this link of a project? */
export function canEditLink(role: RoleName, field: LinkField): boolean {
  return decideLinkEdit(role, field).allowed;
}
