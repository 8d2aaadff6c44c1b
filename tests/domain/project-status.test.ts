import { describe, expect, it } from 'vitest';
import { PROJECT_STATUSES, STAFF_STATUS_LABELS, STATUS_WORKFLOW_ORDER, statusWorkflowRank } from '../../src/domain/project-status.ts';

/** The project statuses' workflow order, by which the staff board sorts its Status column. */
describe('status sort order (issue 12)', () => {
  it('ranks every status once, in workflow order', () => {
    expect([...STATUS_WORKFLOW_ORDER].sort()).toEqual([...PROJECT_STATUSES].sort());
    const labels = [...PROJECT_STATUSES].sort((a, b) => statusWorkflowRank(a) - statusWorkflowRank(b)).map((s) => STAFF_STATUS_LABELS[s]);
    expect([...new Set(labels)]).toEqual(['NOT PUBLISHED', 'NO EDITOR', 'IN PROGRESS', 'PAUSED', 'PENDING REVIEW', 'FINISHED', 'DELETED']);
  });
});
