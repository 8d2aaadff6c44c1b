import { describe, expect, it } from 'vitest';
import { runningProgress } from '../../src/domain/uploads.ts';

/** The uploads panel's progress over its items (issue 12 walkthrough). */
describe('the uploads panel header matches its bars', () => {
  it('counts only the uploads still queued or running', () => {
    const items = [
      { status: 'done', size: 1_000_000_000, loaded: 1_000_000_000 },
      { status: 'uploading', size: 10_000_000, loaded: 5_000_000 },
      { status: 'queued', size: 10_000_000, loaded: 0 },
      { status: 'incomplete', size: 50_000_000, loaded: 25_000_000 },
    ];
    expect(runningProgress(items)).toEqual({ size: 20_000_000, loaded: 5_000_000, percent: 25 });
    expect(runningProgress(items.slice(0, 2)).percent).toBe(50);
    expect(runningProgress([{ status: 'done', size: 5, loaded: 5 }])).toEqual({ size: 0, loaded: 0, percent: 0 });
  });
});
