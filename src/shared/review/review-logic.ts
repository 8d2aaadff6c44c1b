import type { Comment, CommentList, ExportFormat, Thread, Version } from '@/domain/contract/review.ts';
import { frameToSeconds, secondsToFrame, type FrameRate } from '@/domain/timecode.ts';

/**
 * The review panel's pure decisions (no DOM, no React), so the unit tests pin them: where a
 * click seeks, what a key does, where a marker sits, which threads show and how they count.
 */

/** Where to seek to show `frame`: half a frame after its start, so rounding never lands on the frame before. */
export function seekSeconds(frame: number, rate: FrameRate): number {
  return frameToSeconds(frame, rate) + rate.den / rate.num / 2;
}

/** The frame a player shows at `seconds` (a negative or non-finite time, as a player reports while loading, is frame 0). */
export function frameAt(seconds: number, rate: FrameRate): number {
  return Number.isFinite(seconds) && seconds > 0 ? secondsToFrame(seconds, rate) : 0;
}

/** Within 0..last (last = durationFrames - 1 when it is known). */
export function clampFrame(frame: number, durationFrames: number | null): number {
  const last = durationFrames !== null && durationFrames > 0 ? durationFrames - 1 : Number.MAX_SAFE_INTEGER;
  return Math.min(Math.max(0, Math.round(frame)), last);
}

/** v01, v02 … */
export function versionLabel(number: number): string {
  return `v${String(number).padStart(2, '0')}`;
}

export type KeyAction =
  | { kind: 'toggle-play' }
  | { kind: 'pause' }
  | { kind: 'forward' }
  | { kind: 'reverse' }
  | { kind: 'step'; frames: number }
  | { kind: 'step-seconds'; seconds: number }
  | { kind: 'mark-in' }
  | { kind: 'mark-out' };

export interface KeyLike {
  readonly key: string;
  readonly shiftKey?: boolean;
  readonly ctrlKey?: boolean;
  readonly metaKey?: boolean;
  readonly altKey?: boolean;
}

/**
 * The player's keyboard (when focus is not in a text field): Space play/pause; J plays backwards
 * (again: faster), K stops, L plays forwards (again: faster); ← → , . one frame; Shift+← → one
 * second; I / O mark in and out. Null for any other key, and for shortcuts of the browser (Ctrl,
 * ⌘, Alt).
 */
export function keyAction(event: KeyLike): KeyAction | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  switch (event.key) {
    case ' ':
      return { kind: 'toggle-play' };
    case 'j':
    case 'J':
      return { kind: 'reverse' };
    case 'k':
    case 'K':
      return { kind: 'pause' };
    case 'l':
    case 'L':
      return { kind: 'forward' };
    case 'ArrowLeft':
      return event.shiftKey ? { kind: 'step-seconds', seconds: -1 } : { kind: 'step', frames: -1 };
    case 'ArrowRight':
      return event.shiftKey ? { kind: 'step-seconds', seconds: 1 } : { kind: 'step', frames: 1 };
    case ',':
      return { kind: 'step', frames: -1 };
    case '.':
      return { kind: 'step', frames: 1 };
    case 'i':
    case 'I':
      return { kind: 'mark-in' };
    case 'o':
    case 'O':
      return { kind: 'mark-out' };
    default:
      return null;
  }
}

/** The fastest L takes the player (browsers play up to 16×; beyond 8× the sound is gone anyway). */
export const MAX_FORWARD_RATE = 8;

/** L: a paused player plays at 1×, a playing one twice as fast (up to MAX_FORWARD_RATE). */
export function forwardRate(paused: boolean, rate: number): number {
  if (paused) return 1;
  return Math.min(MAX_FORWARD_RATE, Math.max(1, rate) * 2);
}

/**
 * J: browsers cannot play a video backwards, so the player walks back through the frames itself
 * (reverseStep); the first J at 1×, each further J twice as fast, up to MAX_FORWARD_RATE. `rate`
 * is the current backward speed, 0 when not playing backwards.
 */
export function reverseRate(rate: number): number {
  return rate <= 0 ? 1 : Math.min(MAX_FORWARD_RATE, rate * 2);
}

/** Where backward play is after `elapsedMs` at `rate` from `seconds`; never before the start. */
export function reverseStep(seconds: number, rate: number, elapsedMs: number): number {
  return Math.max(0, seconds - (Math.max(0, elapsedMs) / 1000) * rate);
}

/** True when typing goes to this element (a text field), so the player keys stay out of the way. */
export function isTypingTarget(target: { tagName?: string; isContentEditable?: boolean; type?: string } | null): boolean {
  if (!target) return false;
  if (target.isContentEditable) return true;
  const tag = (target.tagName ?? '').toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  return !['button', 'checkbox', 'radio', 'range', 'submit', 'reset', 'file', 'color'].includes((target.type ?? 'text').toLowerCase());
}

/** Threads by frame (then by when they were written), as the list and the timeline show them. */
export function sortThreads(threads: readonly Thread[]): Thread[] {
  return [...threads].sort((a, b) => a.frame - b.frame || a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
}

/** The list with `thread` in place of the thread with its id (or added), in the list's order: a live update of one thread. */
export function withThread(list: CommentList, thread: Thread): CommentList {
  return { ...list, comments: sortThreads([...list.comments.filter((t) => t.id !== thread.id), thread]) };
}

/** The list without the thread `id`, or the thread holding a reply `id`: a live update of a thread that is gone. */
export function withoutComment(list: CommentList, id: number): CommentList {
  return { ...list, comments: list.comments.filter((t) => t.id !== id && !t.replies.some((reply) => reply.id === id)) };
}

/** Open threads: unresolved and not deleted (a deleted thread is kept only for its replies). */
export function openCount(threads: readonly Thread[]): number {
  return threads.filter((thread) => !thread.resolved && !thread.deleted).length;
}

/** The threads the list shows: all, or the open ones when resolved ones are hidden. */
export function visibleThreads(threads: readonly Thread[], showResolved: boolean): Thread[] {
  return sortThreads(threads).filter((thread) => showResolved || !thread.resolved);
}

/** Whether the playhead is on a comment: its frame, or inside its range [frame, endFrame). */
export function isOnComment(comment: Pick<Comment, 'frame' | 'endFrame'>, frame: number): boolean {
  return comment.endFrame === null ? frame === comment.frame : frame >= comment.frame && frame < comment.endFrame;
}

/**
 * A marker on the timeline: left edge and width in percent of the video. The length is the
 * version's durationFrames, else the player's; a marker past the end (or with no length known)
 * sits at the end. A single frame has no width (a tick); a range is a band.
 */
export function markerPosition(frame: number, endFrame: number | null, totalFrames: number | null): { left: number; width: number } {
  if (!totalFrames || totalFrames <= 0) return { left: 0, width: 0 };
  const at = (value: number) => Math.min(100, Math.max(0, (value / totalFrames) * 100));
  const left = at(frame);
  return { left, width: endFrame === null ? 0 : Math.max(0, at(endFrame) - left) };
}

/**
 * The new thread's placement from the playhead and the marks: a range [in, out + 1) when both
 * are marked (out is the last frame included), the in mark or the playhead otherwise. A problem
 * when the out mark is before the in mark.
 */
export function placement(playhead: number, markIn: number | null, markOut: number | null): { frame: number; endFrame: number | null } | { problem: string } {
  const frame = markIn ?? playhead;
  if (markOut === null) return { frame, endFrame: null };
  if (markOut < frame) return { problem: 'The out mark is before the in mark: mark the out point again.' };
  return { frame, endFrame: markOut + 1 };
}

/** The version the panel opens on: the current one, else the newest. */
export function defaultVersion(versions: readonly Version[]): Version | null {
  return versions.find((version) => version.current) ?? versions.at(-1) ?? null;
}

const EXTENSIONS: Record<ExportFormat, string> = { csv: 'csv', edl: 'edl', fcpxml: 'fcpxml', pdf: 'pdf' };
const MIME: Record<ExportFormat, string> = { csv: 'text/csv', edl: 'text/plain', fcpxml: 'application/xml', pdf: 'application/pdf' };

/** The saved file's name and type, as the server names it: `<Project>_vNN_comments.<ext>`. */
export function exportFile(projectName: string, version: number, format: ExportFormat): { name: string; type: string } {
  const base = projectName.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '') || 'project';
  return { name: `${base}_${versionLabel(version)}_comments.${EXTENSIONS[format]}`, type: MIME[format] };
}

/** "just now", "5 min ago", "3 h ago", "2 days ago", then the date. */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const then = Date.parse(iso);
  if (!Number.isFinite(then)) return '';
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  if (days < 7) return days === 1 ? 'yesterday' : `${days} days ago`;
  return new Date(then).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
}
