import { describe, expect, it } from 'vitest';
import { PROJECT_ACTIONS, RULE_MESSAGES, can, decide, type ProjectAction } from '../../src/domain/project-rules.ts';
import { PROJECT_STATUSES, type ProjectStatus } from '../../src/domain/project-status.ts';
import { ROLES, type RoleName } from '../../src/domain/roles.ts';

const facts = (status: ProjectStatus, extra: { hasFinalPreview?: boolean; hasEditor?: boolean } = {}) => ({ status, hasFinalPreview: false, hasEditor: false, ...extra });

/** Where each allowed (action, status) pair leads, for the role that may do it. */
const EXPECTED: [ProjectAction, RoleName, ProjectStatus, ProjectStatus | null][] = [
  ['send-to-editing', 'OWNER', 'OPENED', 'WAITING_FOR_EDITOR'],
  ['send-to-editing', 'USER', 'OPENED', 'WAITING_FOR_EDITOR'],
  ['submit-revision', 'USER', 'IN_REVIEW', 'WAITING_FOR_EDITOR'],
  ['approve', 'OWNER', 'IN_REVIEW', 'APPROVED'],
  ['delete', 'OWNER', 'OPENED', 'DELETED'],
  ['duplicate', 'USER', 'ARCHIVED', 'OPENED'],
  ['edit-brief', 'OWNER', 'OPENED', null],
  ['change-assets', 'USER', 'OPENED', null],
  ['hide', 'ADMIN', 'ARCHIVED', 'HIDDEN'],
  ['restore', 'SUPERADMIN', 'HIDDEN', 'ARCHIVED'],
  ['pause', 'ADMIN', 'IN_EDITING', 'PAUSED'],
  ['resume', 'ADMIN', 'PAUSED', 'IN_EDITING'],
  ['restore-to-review', 'ADMIN', 'APPROVED', 'IN_REVIEW'],
  ['assign-editor', 'ADMIN', 'WAITING_FOR_EDITOR', 'IN_EDITING'],
  ['assign-editor', 'ADMIN', 'IN_EDITING', null],
  ['set-review-period', 'ADMIN', 'IN_REVIEW', null],
  ['rename', 'EDITOR', 'IN_EDITING', null],
];

describe('project state machine', () => {
  it.each(EXPECTED)('%s by %s from %s leads to %s', (action, role, status, next) => {
    expect(decide(action, role, facts(status))).toEqual({ allowed: true, next });
  });

  it('sends a revision back to the assigned editor', () => {
    expect(decide('submit-revision', 'OWNER', facts('IN_REVIEW', { hasEditor: true }))).toEqual({ allowed: true, next: 'IN_EDITING' });
  });

  it('sends to review only with a final preview, from IN_EDITING or PAUSED', () => {
    expect(decide('send-to-review', 'ADMIN', facts('IN_EDITING'))).toEqual({ allowed: false, status: 409, message: RULE_MESSAGES.needsPreview });
    expect(decide('send-to-review', 'ADMIN', facts('PAUSED', { hasFinalPreview: true }))).toEqual({ allowed: true, next: 'IN_REVIEW' });
    expect(decide('send-to-review', 'ADMIN', facts('APPROVED', { hasFinalPreview: true })).allowed).toBe(false);
  });

  it('completes only an approved project with a final video, else 403 with the spec message', () => {
    expect(decide('archive', 'ADMIN', facts('APPROVED', { hasFinalPreview: true }))).toEqual({ allowed: true, next: 'ARCHIVED' });
    for (const status of PROJECT_STATUSES.filter((s) => s !== 'APPROVED')) {
      expect(decide('archive', 'ADMIN', facts(status, { hasFinalPreview: true }))).toEqual({ allowed: false, status: 403, message: RULE_MESSAGES.archiveNeedsApproval });
    }
  });

  it('locks the brief, assets and deletion outside OPENED', () => {
    for (const status of PROJECT_STATUSES.filter((s) => s !== 'OPENED')) {
      for (const action of ['edit-brief', 'change-assets', 'delete', 'send-to-editing'] as const) {
        expect(decide(action, 'OWNER', facts(status))).toMatchObject({ allowed: false, status: 409 });
      }
    }
  });

  it('locks the name once approved, archived, deleted or hidden', () => {
    for (const status of ['APPROVED', 'ARCHIVED', 'DELETED', 'HIDDEN'] as const) expect(can('rename', 'OWNER', facts(status))).toBe(false);
  });

  it('keeps staff actions from customers and editors, and customer actions from staff (403)', () => {
    const staffOnly: ProjectAction[] = ['archive', 'hide', 'restore', 'pause', 'resume', 'send-to-review', 'restore-to-review', 'assign-editor', 'set-review-period'];
    const customerOnly: ProjectAction[] = ['edit-brief', 'delete', 'duplicate', 'send-to-editing', 'submit-revision', 'approve', 'change-assets'];
    for (const status of PROJECT_STATUSES) {
      for (const action of staffOnly) for (const role of ['OWNER', 'USER', 'EDITOR'] as const) expect(decide(action, role, facts(status))).toMatchObject({ allowed: false, status: 403 });
      for (const action of customerOnly) for (const role of ['SUPERADMIN', 'ADMIN', 'EDITOR'] as const) expect(decide(action, role, facts(status))).toMatchObject({ allowed: false, status: 403 });
    }
  });

  it('answers every action for every role and status without throwing', () => {
    for (const action of PROJECT_ACTIONS) for (const role of ROLES) for (const status of PROJECT_STATUSES) expect(typeof decide(action, role, facts(status)).allowed).toBe('boolean');
  });
});
