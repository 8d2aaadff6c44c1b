/**
 * SMPTE timecode at a video's real frame rate (frame-accurate review).
 *
 * Review comments are stored as frame numbers (0 = the first frame), never as seconds or as
 * timecode text: a frame number is exact at every rate, while seconds at 29.97 fps are
 * repeating fractions and timecode text depends on the drop-frame convention. This module
 * converts between the three for the player (media time ↔ frame), the comment list (frame →
 * timecode) and the marker exports (EDL, FCPXML). Pure integer arithmetic wherever possible,
 * so the browser, the workers and the server print the same timecode for the same frame.
 */

/** A frame rate as the exact rational ffprobe reports (`r_frame_rate`), e.g. 30000/1001. */
export interface FrameRate {
  readonly num: number;
  readonly den: number;
}

/** Faster than any camera or screen we review; above this ffprobe's value is a container artefact. */
export const MAX_FPS = 240;

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/**
 * Reads ffprobe's `r_frame_rate` / `avg_frame_rate` ("30000/1001", "25/1", or a bare "25").
 * Null for "0/0" (ffprobe's "unknown"), for anything that is not a positive rational, and for
 * rates above MAX_FPS: a wrong rate would put every comment on the wrong frame, so the caller
 * falls back to the other field or refuses frame-accurate review rather than guess. The
 * fraction is reduced (60/2 → 30/1) so equal rates compare equal.
 */
export function parseFrameRate(text: string): FrameRate | null {
  const match = /^\s*(\d{1,9})\s*(?:\/\s*(\d{1,9})\s*)?$/.exec(text);
  if (!match) return null;
  const num = Number(match[1]);
  const den = match[2] === undefined ? 1 : Number(match[2]);
  if (num <= 0 || den <= 0 || num / den > MAX_FPS) return null;
  const divisor = gcd(num, den);
  return { num: num / divisor, den: den / divisor };
}

/** Cross-multiplied, so an unreduced 60000/2002 still counts as 29.97. */
function isRate(rate: FrameRate, num: number, den: number): boolean {
  return rate.num * den === num * rate.den;
}

/**
 * True for 29.97 (30000/1001) and 59.94 (60000/1001), the NTSC rates SMPTE 12M defines
 * drop-frame timecode for: dropping frame numbers keeps the timecode within a frame or two of
 * the wall clock. 23.976 has no drop-frame variant; it counts 24 frames a second (non-drop)
 * and drifts from the clock by 3.6 s an hour, which is what editors expect.
 */
export function isDropFrame(rate: FrameRate): boolean {
  return isRate(rate, 30000, 1001) || isRate(rate, 60000, 1001);
}

/**
 * The whole number of frames per timecode second: 24 for 23.976, 30 for 29.97, 60 for 59.94,
 * the rate rounded otherwise (at least 1).
 */
export function nominalFps(rate: FrameRate): number {
  return Math.max(1, Math.round(rate.num / rate.den));
}

/** Frame numbers dropped at the start of each minute not divisible by ten: 2 at 29.97, 4 at 59.94. */
function droppedPerMinute(rate: FrameRate): number {
  return isDropFrame(rate) ? nominalFps(rate) / 15 : 0;
}

const pad = (value: number) => String(value).padStart(2, '0');

function assertFrame(frame: number): void {
  if (!Number.isSafeInteger(frame) || frame < 0) throw new RangeError(`A frame number is a whole number ≥ 0, got ${frame}`);
}

/**
 * The SMPTE timecode of a frame: `HH:MM:SS:FF`, or `HH:MM:SS;FF` (semicolon before the frames)
 * for drop-frame rates. Frame 0 is 00:00:00:00; a video's own start timecode is not applied
 * (the exports add their own offset). Hours do not wrap at 24: a review video is never that
 * long, and wrapping would make two frames share a timecode. Throws on a negative or
 * fractional frame (a programming error, not user input).
 */
export function frameToTimecode(frame: number, rate: FrameRate): string {
  assertFrame(frame);
  const fps = nominalFps(rate);
  const drop = droppedPerMinute(rate);
  let label = frame;
  if (drop > 0) {
    // Count the frame numbers skipped before this frame: `drop` at every minute but each tenth.
    const perMinute = fps * 60 - drop;
    const perTenMinutes = perMinute * 10 + drop;
    const tens = Math.floor(frame / perTenMinutes);
    const rest = frame % perTenMinutes;
    label += drop * 9 * tens + (rest > drop ? drop * Math.floor((rest - drop) / perMinute) : 0);
  }
  const ff = label % fps;
  const totalSeconds = Math.floor(label / fps);
  const ss = totalSeconds % 60;
  const mm = Math.floor(totalSeconds / 60) % 60;
  const hh = Math.floor(totalSeconds / 3600);
  return `${pad(hh)}:${pad(mm)}:${pad(ss)}${drop > 0 ? ';' : ':'}${pad(ff)}`;
}

/**
 * The frame a timecode names, or null when it names none: not `HH:MM:SS:FF` (`;` also accepted
 * before the frames, at any rate, since tools differ), minutes or seconds ≥ 60, frames ≥ the
 * nominal fps, or at a drop-frame rate a frame number that was dropped (00:01:00;00 at 29.97).
 */
export function timecodeToFrame(text: string, rate: FrameRate): number | null {
  const match = /^\s*(\d{2,3}):(\d{2}):(\d{2})[:;](\d{2,3})\s*$/.exec(text);
  if (!match) return null;
  const [hh, mm, ss, ff] = match.slice(1).map(Number) as [number, number, number, number];
  const fps = nominalFps(rate);
  if (mm >= 60 || ss >= 60 || ff >= fps) return null;
  const drop = droppedPerMinute(rate);
  const minutes = hh * 60 + mm;
  if (drop > 0 && ss === 0 && ff < drop && mm % 10 !== 0) return null;
  return (minutes * 60 + ss) * fps + ff - drop * (minutes - Math.floor(minutes / 10));
}

/** When a frame starts, in seconds of media time: frame × den / num. */
export function frameToSeconds(frame: number, rate: FrameRate): number {
  assertFrame(frame);
  return (frame * rate.den) / rate.num;
}

/**
 * How far below a frame boundary a media time may fall and still count as that frame, in
 * frames. frame × den / num is rarely exact in binary floating point, so without it the start
 * time of frame n could read back as frame n − 1. A millionth of a frame (17 ns at 60 fps) is far
 * above that rounding error for hours of video and far below any time a player can seek to.
 */
const FRAME_EPSILON = 1e-6;

/**
 * The frame shown at a media time (a player's `currentTime`): the last frame that started at or
 * before it. Round trips with frameToSeconds for every frame. Throws on a negative or
 * non-finite time (a programming error: players report neither).
 */
export function secondsToFrame(seconds: number, rate: FrameRate): number {
  if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError(`Media time is a finite number of seconds ≥ 0, got ${seconds}`);
  return Math.floor((seconds * rate.num) / rate.den + FRAME_EPSILON);
}
