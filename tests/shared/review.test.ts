import { afterEach, describe, expect, it } from 'vitest';
import type { Thread } from '../../src/domain/contract/review.ts';
import { queryClient } from '../../src/lib/query.ts';
import { queryKeys } from '../../src/shared/query/keys.ts';
import { reviewKeys } from '../../src/shared/review/keys.ts';
import {
  clampFrame,
  defaultVersion,
  exportFile,
  forwardRate,
  frameAt,
  isOnComment,
  isTypingTarget,
  keyAction,
  markerPosition,
  MAX_FORWARD_RATE,
  openCount,
  placement,
  relativeTime,
  reverseRate,
  reverseStep,
  seekSeconds,
  sortThreads,
  versionLabel,
  visibleThreads,
  withThread,
  withoutComment,
} from '../../src/shared/review/review-logic.ts';

const NTSC = { num: 30000, den: 1001 };
const PAL = { num: 25, den: 1 };

function thread(id: number, frame: number, extra: Partial<Thread> = {}): Thread {
  return {
    id,
    version: 1,
    parentId: null,
    frame,
    endFrame: null,
    timecode: '00:00:00:00',
    endTimecode: null,
    text: `comment ${id}`,
    drawing: null,
    author: { name: 'Olivia Owner', role: 'OWNER' },
    resolved: false,
    resolvedAt: null,
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-01T10:00:00.000Z',
    deleted: false,
    canEdit: true,
    canResolve: true,
    canDelete: true,
    replies: [],
    ...extra,
  };
}

describe('seeking lands on the exact frame', () => {
  it('a click seeks half a frame into the comment’s frame, which reads back as that frame at every rate', () => {
    for (const rate of [NTSC, PAL, { num: 24000, den: 1001 }, { num: 60000, den: 1001 }]) {
      for (const frame of [0, 1, 2, 29, 30, 1799, 1800, 17982, 107892]) {
        expect(frameAt(seekSeconds(frame, rate), rate)).toBe(frame);
      }
    }
    expect(seekSeconds(0, PAL)).toBeCloseTo(0.02, 10);
  });

  it('a player still loading (NaN, negative) is on frame 0; steps stay inside the video', () => {
    expect(frameAt(Number.NaN, PAL)).toBe(0);
    expect(frameAt(-1, PAL)).toBe(0);
    expect(clampFrame(-3, 100)).toBe(0);
    expect(clampFrame(150, 100)).toBe(99);
    expect(clampFrame(150, null)).toBe(150);
  });
});

describe('the player keys', () => {
  it('map Space, J/K/L, arrows, comma/period and I/O', () => {
    expect(keyAction({ key: ' ' })).toEqual({ kind: 'toggle-play' });
    expect(keyAction({ key: 'j' })).toEqual({ kind: 'reverse' });
    expect(keyAction({ key: 'K' })).toEqual({ kind: 'pause' });
    expect(keyAction({ key: 'l' })).toEqual({ kind: 'forward' });
    expect(keyAction({ key: 'ArrowLeft' })).toEqual({ kind: 'step', frames: -1 });
    expect(keyAction({ key: 'ArrowRight' })).toEqual({ kind: 'step', frames: 1 });
    expect(keyAction({ key: ',' })).toEqual({ kind: 'step', frames: -1 });
    expect(keyAction({ key: '.' })).toEqual({ kind: 'step', frames: 1 });
    expect(keyAction({ key: 'ArrowLeft', shiftKey: true })).toEqual({ kind: 'step-seconds', seconds: -1 });
    expect(keyAction({ key: 'ArrowRight', shiftKey: true })).toEqual({ kind: 'step-seconds', seconds: 1 });
    expect(keyAction({ key: 'i' })).toEqual({ kind: 'mark-in' });
    expect(keyAction({ key: 'O' })).toEqual({ kind: 'mark-out' });
  });

  it('leave the browser’s shortcuts and other keys alone', () => {
    expect(keyAction({ key: 'l', ctrlKey: true })).toBeNull();
    expect(keyAction({ key: 'ArrowLeft', metaKey: true })).toBeNull();
    expect(keyAction({ key: 'i', altKey: true })).toBeNull();
    expect(keyAction({ key: 'x' })).toBeNull();
    expect(keyAction({ key: 'Enter' })).toBeNull();
  });

  it('J plays backwards at 1×, each further J twice as fast up to the cap, never before the start', () => {
    expect(reverseRate(0)).toBe(1);
    expect(reverseRate(1)).toBe(2);
    expect(reverseRate(4)).toBe(8);
    expect(reverseRate(MAX_FORWARD_RATE)).toBe(MAX_FORWARD_RATE);
    expect(reverseStep(2, 1, 500)).toBe(1.5);
    expect(reverseStep(2, 4, 250)).toBe(1);
    expect(reverseStep(0.1, 8, 1000)).toBe(0);
    // A clock that went backwards moves nothing.
    expect(reverseStep(2, 1, -16)).toBe(2);
  });

  it('L plays at 1× from pause and doubles while playing, up to the cap', () => {
    expect(forwardRate(true, 4)).toBe(1);
    expect(forwardRate(false, 1)).toBe(2);
    expect(forwardRate(false, 2)).toBe(4);
    expect(forwardRate(false, 0.7)).toBe(2);
    expect(forwardRate(false, MAX_FORWARD_RATE)).toBe(MAX_FORWARD_RATE);
  });

  it('stay out of text fields but not out of buttons and checkboxes', () => {
    expect(isTypingTarget({ tagName: 'TEXTAREA' })).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'text' })).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT' })).toBe(true);
    expect(isTypingTarget({ tagName: 'SELECT' })).toBe(true);
    expect(isTypingTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(isTypingTarget({ tagName: 'BUTTON' })).toBe(false);
    expect(isTypingTarget({ tagName: 'VIDEO' })).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});

describe('the list and the timeline', () => {
  it('threads sort by frame, then by when they were written', () => {
    const later = thread(3, 10, { createdAt: '2026-01-02T00:00:00.000Z' });
    expect(sortThreads([thread(1, 50), later, thread(2, 10)]).map((t) => t.id)).toEqual([2, 3, 1]);
  });

  it('counts open threads (not resolved, not deleted) and hides resolved ones on demand', () => {
    const threads = [thread(1, 5), thread(2, 1, { resolved: true }), thread(3, 9, { deleted: true })];
    expect(openCount(threads)).toBe(1);
    expect(visibleThreads(threads, true).map((t) => t.id)).toEqual([2, 1, 3]);
    expect(visibleThreads(threads, false).map((t) => t.id)).toEqual([1, 3]);
  });

  it('the playhead is on a single-frame comment at its frame, on a range within [frame, endFrame)', () => {
    expect(isOnComment({ frame: 10, endFrame: null }, 10)).toBe(true);
    expect(isOnComment({ frame: 10, endFrame: null }, 11)).toBe(false);
    expect(isOnComment({ frame: 10, endFrame: 20 }, 19)).toBe(true);
    expect(isOnComment({ frame: 10, endFrame: 20 }, 20)).toBe(false);
  });

  it('markers sit in percent of the video: a tick for a frame, a band for a range, clamped to the bar', () => {
    expect(markerPosition(50, null, 200)).toEqual({ left: 25, width: 0 });
    expect(markerPosition(50, 100, 200)).toEqual({ left: 25, width: 25 });
    expect(markerPosition(300, null, 200)).toEqual({ left: 100, width: 0 });
    expect(markerPosition(5, null, null)).toEqual({ left: 0, width: 0 });
  });

  it('a new thread is at the playhead, at the in mark, or over [in, out + 1)', () => {
    expect(placement(40, null, null)).toEqual({ frame: 40, endFrame: null });
    expect(placement(40, 12, null)).toEqual({ frame: 12, endFrame: null });
    expect(placement(40, 12, 30)).toEqual({ frame: 12, endFrame: 31 });
    expect(placement(40, null, 45)).toEqual({ frame: 40, endFrame: 46 });
    expect(placement(40, 12, 12)).toEqual({ frame: 12, endFrame: 13 });
    expect(placement(40, 30, 12)).toHaveProperty('problem');
  });
});

describe('versions, exports and times', () => {
  const version = (number: number, current: boolean) => ({
    number,
    createdAt: '2026-01-01T00:00:00.000Z',
    releasedAt: null,
    current,
    frameRate: PAL,
    frameRateKnown: true,
    durationFrames: 100,
    width: 1280,
    height: 720,
    media: null,
  });

  it('labels versions v01, v02 and opens on the current one (else the newest)', () => {
    expect(versionLabel(1)).toBe('v01');
    expect(versionLabel(12)).toBe('v12');
    expect(defaultVersion([version(1, false), version(2, true), version(3, false)])?.number).toBe(2);
    expect(defaultVersion([version(1, false), version(2, false)])?.number).toBe(2);
    expect(defaultVersion([])).toBeNull();
  });

  it('names the exported file as the server does', () => {
    expect(exportFile('Hiring video', 1, 'edl')).toEqual({ name: 'Hiring_video_v01_comments.edl', type: 'text/plain' });
    expect(exportFile('Q3: "best" cut!', 12, 'fcpxml').name).toBe('Q3_best_cut_v12_comments.fcpxml');
    expect(exportFile('***', 2, 'csv')).toEqual({ name: 'project_v02_comments.csv', type: 'text/csv' });
  });

  it('says how long ago a comment was written', () => {
    const now = Date.parse('2026-01-10T12:00:00.000Z');
    expect(relativeTime('2026-01-10T11:59:30.000Z', now)).toBe('just now');
    expect(relativeTime('2026-01-10T11:55:00.000Z', now)).toBe('5 min ago');
    expect(relativeTime('2026-01-10T09:00:00.000Z', now)).toBe('3 h ago');
    expect(relativeTime('2026-01-09T10:00:00.000Z', now)).toBe('yesterday');
    expect(relativeTime('2026-01-07T10:00:00.000Z', now)).toBe('3 days ago');
    expect(relativeTime('2025-12-01T10:00:00.000Z', now)).toMatch(/2025/);
    expect(relativeTime('not a date', now)).toBe('');
  });
});

describe('the review’s reads live under the project’s key', () => {
  afterEach(() => queryClient.clear());

  it('invalidating the project refreshes its versions and every version’s comments', async () => {
    for (const key of [reviewKeys.versions(7), reviewKeys.comments(7, 1), reviewKeys.comments(7, 2)]) {
      queryClient.setQueryData(key, { kept: true });
      await queryClient.invalidateQueries({ queryKey: queryKeys.project(7) });
      expect(queryClient.getQueryState(key)?.isInvalidated).toBe(true);
    }
  });

  it('a change to one version’s comments refreshes that version only', async () => {
    queryClient.setQueryData(reviewKeys.comments(7, 1), { kept: true });
    queryClient.setQueryData(reviewKeys.comments(7, 2), { kept: true });
    queryClient.setQueryData(reviewKeys.versions(7), { kept: true });
    await queryClient.invalidateQueries({ queryKey: reviewKeys.comments(7, 1) });
    expect(queryClient.getQueryState(reviewKeys.comments(7, 1))?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(reviewKeys.comments(7, 2))?.isInvalidated).toBe(false);
    expect(queryClient.getQueryState(reviewKeys.versions(7))?.isInvalidated).toBe(false);
  });
});

describe('a live update of one thread', () => {
  const list = (...comments: Thread[]) => ({ version: 1, frameRate: PAL, frameRateKnown: true, comments });
  it('puts a new thread in frame order and replaces a changed one in place', () => {
    const before = list(thread(1, 10), thread(2, 50));
    expect(withThread(before, thread(3, 30)).comments.map((t) => t.id)).toEqual([1, 3, 2]);
    const resolved = withThread(before, thread(2, 50, { resolved: true, replies: [{ ...thread(9, 50), parentId: 2 }] }));
    expect(resolved.comments.map((t) => t.id)).toEqual([1, 2]);
    expect(resolved.comments[1]).toMatchObject({ resolved: true, replies: [{ id: 9 }] });
    // The list held before is left as it was (the query cache compares by reference).
    expect(before.comments[1]!.resolved).toBe(false);
  });

  it('takes out a thread that is gone, named by its own id or by a reply of it', () => {
    const before = list(thread(1, 10), thread(2, 50, { replies: [{ ...thread(7, 50), parentId: 2 }] }));
    expect(withoutComment(before, 1).comments.map((t) => t.id)).toEqual([2]);
    expect(withoutComment(before, 7).comments.map((t) => t.id)).toEqual([1]);
    expect(withoutComment(before, 99).comments.map((t) => t.id)).toEqual([1, 2]);
  });
});
