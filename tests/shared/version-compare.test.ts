import { describe, expect, it } from 'vitest';
import type { Version } from '../../src/domain/contract/review.ts';
import {
  clampWipe,
  finerRate,
  frameSeconds,
  initialPair,
  NUDGE,
  PLAYING_SEEK_FRAMES,
  syncAction,
  wipeAt,
  wipeClip,
  wipeKey,
} from '../../src/shared/review/compare-logic.ts';

const FPS25 = { num: 25, den: 1 };
const NTSC = { num: 30000, den: 1001 };
const frame = frameSeconds(FPS25);

function version(number: number, playable = true, current = false): Version {
  const media = playable ? { preview: `/p${number}`, stream: `/s${number}`, thumbnail: `/t${number}` } : null;
  return {
    number,
    createdAt: '2026-11-01T00:00:00.000Z',
    releasedAt: null,
    current,
    frameRate: FPS25,
    frameRateKnown: true,
    durationFrames: 50,
    width: 320,
    height: 180,
    media,
  };
}

describe('synchronised playback of a compare', () => {
  it('paused: leaves the follower within half a frame, else seeks it onto the leader’s instant', () => {
    expect(syncAction(1, 1 + frame / 3, { playing: false, rate: FPS25, followerDuration: 10 })).toEqual({ kind: 'none', playbackRate: 1 });
    expect(syncAction(1, 1 + frame, { playing: false, rate: FPS25, followerDuration: 10 })).toEqual({ kind: 'seek', to: 1, playbackRate: 1 });
  });

  it('playing: ignores a frame of drift, nudges the speed up to a few frames, seeks beyond', () => {
    expect(syncAction(2, 2 + frame * 0.9, { playing: true, rate: FPS25, followerDuration: 10 })).toEqual({ kind: 'none', playbackRate: 1 });
    expect(syncAction(2, 2 + frame * 2, { playing: true, rate: FPS25, followerDuration: 10 })).toEqual({ kind: 'none', playbackRate: 1 - NUDGE });
    expect(syncAction(2, 2 - frame * 2, { playing: true, rate: FPS25, followerDuration: 10 })).toEqual({ kind: 'none', playbackRate: 1 + NUDGE });
    expect(syncAction(2, 2 + frame * (PLAYING_SEEK_FRAMES + 1), { playing: true, rate: FPS25, followerDuration: 10 })).toEqual({
      kind: 'seek',
      to: 2,
      playbackRate: 1,
    });
    // The nudge is relative to the chosen speed.
    expect(syncAction(2, 2 + frame * 2, { playing: true, rate: FPS25, followerDuration: 10, speed: 2 }).playbackRate).toBeCloseTo(2 * (1 - NUDGE));
  });

  it('never seeks a shorter follower past its end, nor before 0', () => {
    expect(syncAction(12, 3, { playing: false, rate: FPS25, followerDuration: 8 })).toEqual({ kind: 'seek', to: 8, playbackRate: 1 });
    expect(syncAction(12, 8, { playing: false, rate: FPS25, followerDuration: 8 }).kind).toBe('none');
    expect(syncAction(-1, 0.5, { playing: false, rate: FPS25, followerDuration: null })).toEqual({ kind: 'seek', to: 0, playbackRate: 1 });
  });

  it('holds to the finer of the two frame rates', () => {
    expect(finerRate(FPS25, NTSC)).toBe(NTSC);
    expect(finerRate({ num: 60, den: 1 }, NTSC)).toEqual({ num: 60, den: 1 });
    expect(frameSeconds(NTSC)).toBeCloseTo(1001 / 30000, 12);
  });
});

describe('the wipe', () => {
  it('clips B to the left of the handle', () => {
    expect(wipeClip(0.5)).toBe('inset(0 50% 0 0)');
    expect(wipeClip(0.25)).toBe('inset(0 75% 0 0)');
    expect(wipeClip(1)).toBe('inset(0 0% 0 0)');
    expect(wipeClip(-3)).toBe('inset(0 100% 0 0)');
    expect(wipeClip(Number.NaN)).toBe('inset(0 50% 0 0)');
  });

  it('follows the pointer within the picture', () => {
    expect(wipeAt(350, 100, 1000)).toBeCloseTo(0.25);
    expect(wipeAt(50, 100, 1000)).toBe(0);
    expect(wipeAt(5000, 100, 1000)).toBe(1);
    expect(wipeAt(300, 100, 0)).toBe(0.5);
    expect(clampWipe(Number.POSITIVE_INFINITY)).toBe(0.5);
  });

  it('moves by keyboard: 1 % per arrow, 10 % with Shift or Page keys, Home and End to the ends', () => {
    expect(wipeKey('ArrowRight', false, 0.5)).toBeCloseTo(0.51);
    expect(wipeKey('ArrowLeft', true, 0.5)).toBeCloseTo(0.4);
    expect(wipeKey('PageUp', false, 0.95)).toBe(1);
    expect(wipeKey('Home', false, 0.7)).toBe(0);
    expect(wipeKey('End', false, 0.2)).toBe(1);
    expect(wipeKey('a', false, 0.2)).toBeNull();
  });
});

describe('the pair a compare opens on', () => {
  it('is the version before the chosen one and the chosen one; the first against the newest; else the two newest', () => {
    const list = [version(1), version(2), version(3, true, true)];
    expect(initialPair(list, null)).toEqual([2, 3]);
    expect(initialPair(list, 2)).toEqual([1, 2]);
    expect(initialPair(list, 1)).toEqual([1, 3]);
  });

  it('needs two playable versions', () => {
    expect(initialPair([version(1)], 1)).toBeNull();
    expect(initialPair([version(1), version(2, false)], 1)).toBeNull();
    expect(initialPair([version(1), version(2, false), version(3)], 2)).toEqual([1, 3]);
  });
});
