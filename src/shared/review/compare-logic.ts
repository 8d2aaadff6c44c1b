import type { Version } from '@/domain/contract/review.ts';
import type { FrameRate } from '@/domain/timecode.ts';

/**
 * The version compare's pure maths (no DOM): how far the follower video may drift from the
 * leader before it is corrected, and where the wipe cuts. Unit-tested in
 * tests/shared/version-compare.test.ts.
 */

/** Seconds of one frame at `rate`. */
export function frameSeconds(rate: FrameRate): number {
  return rate.den / rate.num;
}

/**
 * While playing, a hard seek makes the follower stall for a moment, so drift under
 * `PLAYING_SEEK_FRAMES` is taken back by a slightly faster or slower playback instead.
 */
export const PLAYING_SEEK_FRAMES = 4;
/** How much the follower's speed is nudged while it is more than a frame off. */
export const NUDGE = 0.05;

export type SyncAction = { kind: 'none'; playbackRate: number } | { kind: 'seek'; to: number; playbackRate: number };

/**
 * What to do to the follower (B) so it shows the leader's (A) instant. Paused: within half a
 * frame of the finer rate, or seek there (so both show the same frame). Playing: within a frame
 * nothing; up to PLAYING_SEEK_FRAMES a speed nudge toward the leader; beyond, a seek. The target
 * never passes the follower's end (a shorter version stops on its last frame).
 */
export function syncAction(
  leader: number,
  follower: number,
  options: { playing: boolean; rate: FrameRate; followerDuration: number | null; speed?: number },
): SyncAction {
  const speed = options.speed ?? 1;
  const frame = frameSeconds(options.rate);
  const end = options.followerDuration !== null && Number.isFinite(options.followerDuration) ? options.followerDuration : Number.POSITIVE_INFINITY;
  const target = Math.min(Math.max(0, leader), end);
  const drift = follower - target;
  if (!options.playing) return Math.abs(drift) <= frame / 2 ? { kind: 'none', playbackRate: speed } : { kind: 'seek', to: target, playbackRate: speed };
  if (Math.abs(drift) <= frame) return { kind: 'none', playbackRate: speed };
  if (Math.abs(drift) <= PLAYING_SEEK_FRAMES * frame) return { kind: 'none', playbackRate: speed * (drift > 0 ? 1 - NUDGE : 1 + NUDGE) };
  return { kind: 'seek', to: target, playbackRate: speed };
}

/** The finer of two frame rates (the one whose frame is shorter): sync holds to its frame. */
export function finerRate(a: FrameRate, b: FrameRate): FrameRate {
  return a.num / a.den >= b.num / b.den ? a : b;
}

/** The wipe's position, a share of the width within [0, 1] (NaN, as from an empty drag, is the middle). */
export function clampWipe(position: number): number {
  return Number.isFinite(position) ? Math.min(1, Math.max(0, position)) : 0.5;
}

/** The position under a pointer at `clientX` over a box starting at `left`, `width` wide. */
export function wipeAt(clientX: number, left: number, width: number): number {
  return width > 0 ? clampWipe((clientX - left) / width) : 0.5;
}

/** B is shown left of the wipe, A right of it: B's clip-path for a position. */
export function wipeClip(position: number): string {
  const hidden = Math.round((1 - clampWipe(position)) * 10_000) / 100;
  return `inset(0 ${hidden}% 0 0)`;
}

/** Keys of the wipe's slider (role="slider"): arrows move 1 %, with Shift or Page keys 10 %, Home/End to the ends. */
export function wipeKey(key: string, shift: boolean, position: number): number | null {
  const step = shift ? 0.1 : 0.01;
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return clampWipe(position - step);
    case 'ArrowRight':
    case 'ArrowUp':
      return clampWipe(position + step);
    case 'PageDown':
      return clampWipe(position - 0.1);
    case 'PageUp':
      return clampWipe(position + 0.1);
    case 'Home':
      return 0;
    case 'End':
      return 1;
    default:
      return null;
  }
}

/**
 * The pair a compare opens on: the version before the chosen one as A and the chosen one as B;
 * the first version chosen, it against the newest; nothing chosen, the two newest.
 */
export function initialPair(versions: readonly Version[], chosen: number | null): [number, number] | null {
  const playable = versions.filter((version) => version.media !== null).map((version) => version.number);
  if (playable.length < 2) return null;
  if (chosen === playable[0]) return [chosen, playable.at(-1)!];
  const b = chosen !== null && playable.includes(chosen) ? chosen : playable.at(-1)!;
  const a = playable.filter((number) => number < b).at(-1) ?? playable[0]!;
  return [a, b];
}
