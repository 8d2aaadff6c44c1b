import { describe, expect, it } from 'vitest';
import { decide, restoreTarget } from '../../src/domain/project-rules.ts';
import { PROJECT_STATUSES, STAFF_STATUS_LABELS, STATUS_WORKFLOW_ORDER, statusWorkflowRank } from '../../src/domain/project-status.ts';
import { trialRegistrationLink } from '../../src/domain/user-management.ts';

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

describe('status sort order (issue 12)', () => {
  it('ranks every status once, in workflow order', () => {
    expect([...STATUS_WORKFLOW_ORDER].sort()).toEqual([...PROJECT_STATUSES].sort());
    const labels = [...PROJECT_STATUSES].sort((a, b) => statusWorkflowRank(a) - statusWorkflowRank(b)).map((s) => STAFF_STATUS_LABELS[s]);
    expect([...new Set(labels)]).toEqual(['NOT PUBLISHED', 'NO EDITOR', 'IN PROGRESS', 'PAUSED', 'PENDING REVIEW', 'FINISHED', 'DELETED']);
  });
});

describe('trial registration link (issue 12)', () => {
  it('is specific to the user and carries no secret', () => {
    const a = trialRegistrationLink('https://app.cutdesk.test', 'bea+trial@bluefern.test');
    const b = trialRegistrationLink('https://app.cutdesk.test', 'tom@bluefern.test');
    expect(a).not.toBe(b);
    const url = new URL(a);
    expect(url.pathname).toBe('/login/user');
    expect(url.searchParams.get('email')).toBe('bea+trial@bluefern.test');
    expect(url.searchParams.get('next')).toBe('/pricing');
    expect([...url.searchParams.keys()].sort()).toEqual(['email', 'next']);
  });
});
