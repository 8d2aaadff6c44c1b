import { describe, expect, it } from 'vitest';
import { finalPreviewState, type FinalPreviewState } from '../../src/domain/media.ts';
import { PROJECT_ACTIONS, RULE_MESSAGES, can, decide, restoreTarget, sendToReviewBlocker, type ProjectAction } from '../../src/domain/project-rules.ts';
import { PROJECT_STATUSES, type ProjectStatus } from '../../src/domain/project-status.ts';
import { ROLES, type RoleName } from '../../src/domain/roles.ts';

const facts = (status: ProjectStatus, extra: { hasFinalPreview?: boolean; hasEditor?: boolean; finalPreview?: FinalPreviewState } = {}) => ({
  status,
  hasFinalPreview: false,
  hasEditor: false,
  ...extra,
});

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
  ['unassign-editor', 'ADMIN', 'IN_EDITING', 'WAITING_FOR_EDITOR'],
  ['set-review-period', 'ADMIN', 'IN_REVIEW', null],
  ['rename', 'EDITOR', 'IN_EDITING', null],
];

describe('project state machine', () => {
  it.each(EXPECTED)('%s by %s from %s leads to %s', (action, role, status, next) => {
    expect(decide(action, role, facts(status))).toEqual({ allowed: true, next });
  });

  it('takes the editor off only while the project is being edited', () => {
    for (const status of ['WAITING_FOR_EDITOR', 'IN_REVIEW', 'PAUSED', 'APPROVED'] as const)
      expect(decide('unassign-editor', 'ADMIN', facts(status, { hasEditor: true })).allowed).toBe(false);
  });

  it('sends a revision back to the assigned editor', () => {
    expect(decide('submit-revision', 'OWNER', facts('IN_REVIEW', { hasEditor: true }))).toEqual({ allowed: true, next: 'IN_EDITING' });
  });

  it('sends to review only with a final preview, from IN_EDITING or PAUSED', () => {
    expect(decide('send-to-review', 'ADMIN', facts('IN_EDITING'))).toEqual({ allowed: false, status: 409, message: RULE_MESSAGES.needsPreview });
    expect(decide('send-to-review', 'ADMIN', facts('PAUSED', { hasFinalPreview: true, finalPreview: 'ready' }))).toEqual({ allowed: true, next: 'IN_REVIEW' });
    expect(decide('send-to-review', 'ADMIN', facts('APPROVED', { hasFinalPreview: true, finalPreview: 'ready' })).allowed).toBe(false);
  });

  it('issue 36: sends to review only once the final video is processed, saying why not before', () => {
    const send = (finalPreview: FinalPreviewState | undefined, status: ProjectStatus = 'IN_EDITING') =>
      decide('send-to-review', 'ADMIN', facts(status, { hasFinalPreview: true, finalPreview }));
    expect(send('processing')).toEqual({ allowed: false, status: 409, message: RULE_MESSAGES.previewProcessing });
    expect(send('processing', 'PAUSED')).toEqual({ allowed: false, status: 409, message: RULE_MESSAGES.previewProcessing });
    expect(send('failed')).toEqual({ allowed: false, status: 409, message: RULE_MESSAGES.previewFailed });
    expect(send('none')).toEqual({ allowed: false, status: 409, message: RULE_MESSAGES.needsPreview });
    // A caller that does not know the pipeline's state is not told yes.
    expect(send(undefined).allowed).toBe(false);
    expect(send('ready')).toEqual({ allowed: true, next: 'IN_REVIEW' });
    // The status is said first: a project in review is not "being processed" for this button.
    expect(send('processing', 'IN_REVIEW')).toEqual({ allowed: false, status: 409, message: RULE_MESSAGES.notInStatus('sent to review', 'in review') });
    expect(RULE_MESSAGES.previewProcessing).toBe('Available once the final video is processed.');
    expect(sendToReviewBlocker({ hasFinalPreview: false, finalPreview: 'ready' })).toBe(RULE_MESSAGES.needsPreview);
  });

  it('issue 36: reads the preview state from the current final video and its latest preview job', () => {
    expect(finalPreviewState(null, 'done')).toBe('none');
    expect(finalPreviewState('projects/1/final/cut.mp4', null)).toBe('processing');
    expect(finalPreviewState('projects/1/final/cut.mp4', 'queued')).toBe('processing');
    expect(finalPreviewState('projects/1/final/cut.mp4', 'running')).toBe('processing');
    expect(finalPreviewState('projects/1/final/cut.mp4', 'failed')).toBe('failed');
    expect(finalPreviewState('projects/1/final/cut.mp4', 'done')).toBe('ready');
  });

  it('completes only an approved project with a final video, else 403 with the spec message', () => {
    expect(decide('archive', 'ADMIN', facts('APPROVED', { hasFinalPreview: true }))).toEqual({ allowed: true, next: 'ARCHIVED' });
    for (const status of PROJECT_STATUSES.filter((s) => s !== 'APPROVED')) {
      expect(decide('archive', 'ADMIN', facts(status, { hasFinalPreview: true }))).toEqual({
        allowed: false,
        status: 403,
        message: RULE_MESSAGES.archiveNeedsApproval,
      });
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
    const staffOnly: ProjectAction[] = [
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
    ];
    const customerOnly: ProjectAction[] = ['edit-brief', 'delete', 'duplicate', 'send-to-editing', 'submit-revision', 'approve', 'change-assets'];
    for (const status of PROJECT_STATUSES) {
      for (const action of staffOnly)
        for (const role of ['OWNER', 'USER', 'EDITOR'] as const) expect(decide(action, role, facts(status))).toMatchObject({ allowed: false, status: 403 });
      for (const action of customerOnly)
        for (const role of ['SUPERADMIN', 'ADMIN', 'EDITOR'] as const)
          expect(decide(action, role, facts(status))).toMatchObject({ allowed: false, status: 403 });
    }
  });

  it('answers every action for every role and status without throwing', () => {
    for (const action of PROJECT_ACTIONS)
      for (const role of ROLES) for (const status of PROJECT_STATUSES) expect(typeof decide(action, role, facts(status)).allowed).toBe('boolean');
  });
});

const hidden = { status: 'HIDDEN' as const, hasFinalPreview: false, hasEditor: true };

describe('Restore (issue 12)', () => {
  it('brings a deleted project back to the status it had, a paused one paused', () => {
    expect(decide('restore', 'ADMIN', { ...hidden, statusBeforeHidden: 'PAUSED' })).toEqual({ allowed: true, next: 'PAUSED' });
    for (const before of ['WAITING_FOR_EDITOR', 'IN_EDITING', 'IN_REVIEW', 'APPROVED', 'ARCHIVED', 'DELETED'] as const) {
      expect(decide('restore', 'SUPERADMIN', { ...hidden, statusBeforeHidden: before })).toEqual({ allowed: true, next: before });
    }
  });

  it('restores a project deleted before the status was remembered as A§4 says (ARCHIVED)', () => {
    expect(decide('restore', 'ADMIN', hidden)).toEqual({ allowed: true, next: 'ARCHIVED' });
    expect(restoreTarget(null)).toBe('ARCHIVED');
    expect(restoreTarget('HIDDEN')).toBe('ARCHIVED');
  });

  it('is still refused to editors and outside Deleted Projects', () => {
    expect(decide('restore', 'EDITOR', { ...hidden, statusBeforeHidden: 'PAUSED' }).allowed).toBe(false);
    expect(decide('restore', 'ADMIN', { ...hidden, status: 'PAUSED', statusBeforeHidden: 'PAUSED' }).allowed).toBe(false);
  });
});
