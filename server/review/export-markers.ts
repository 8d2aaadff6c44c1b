import { csvDocument } from '../../src/domain/csv.ts';
import { frameToTimecode, isDropFrame, timecodeToFrame, type FrameRate } from '../../src/domain/timecode.ts';

/**
 * A version's review comments as markers an editor imports into their NLE: a CSV for people
 * and spreadsheets, a CMX3600 marker EDL for DaVinci Resolve, FCPXML 1.9 for Final Cut Pro.
 * Pure string building (no Fastify, no database): the route loads the comments, calls one of
 * these and sends the text with its content type.
 *
 * Comments are exported in frame order (ties in the order given), so every format lists them
 * as they appear on the timeline. The CSV, for people, carries the replies and the deleted threads
 * kept for their replies too; the marker formats carry the live threads only.
 */

/** A reply under a thread (its frame is the thread's). */
export interface MarkerReply {
  readonly text: string;
  readonly author: string;
}

export interface MarkerComment {
  /** First frame (0 = the version's first frame). */
  readonly frame: number;
  /** Exclusive end of a range comment; absent or null for a single frame. */
  readonly endFrame?: number | null;
  readonly text: string;
  /** The name shown for the author (a member's name or a guest's typed name). */
  readonly author: string;
  readonly resolved: boolean;
  /** Replies, oldest first (only the CSV lists them). */
  readonly replies?: readonly MarkerReply[];
  /** A deleted thread kept because replies answer it: a row in the CSV, no marker. */
  readonly deleted?: boolean;
}

export interface MarkerExport {
  readonly projectName: string;
  readonly version: number;
  readonly rate: FrameRate;
  /** The version's length in frames. */
  readonly durationFrames: number;
  readonly comments: readonly MarkerComment[];
  /** Picture size for FCPXML's <format>, when known. */
  readonly width?: number | null;
  readonly height?: number | null;
}

const byFrame = (comments: readonly MarkerComment[]) => [...comments].sort((a, b) => a.frame - b.frame);
/** The threads that become markers: live ones, in frame order. */
const markerThreads = (comments: readonly MarkerComment[]) => byFrame(comments.filter((comment) => !comment.deleted));

/** v01, v02 …: the version as the file name, the PDF and the pages write it. */
const versionLabel = (version: number) => `v${String(version).padStart(2, '0')}`;

/** Frames a marker lasts: its range, or one frame for a single-frame comment. */
const markerFrames = (comment: MarkerComment) => (comment.endFrame != null && comment.endFrame > comment.frame ? comment.endFrame - comment.frame : 1);

/** Text on one line: line breaks, tabs and other control characters become spaces, runs of spaces one space. */
const oneLine = (text: string) =>
  text
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();

// ---------------------------------------------------------------------------------------
// CSV (RFC 4180).
// ---------------------------------------------------------------------------------------

export const CSV_HEADER = ['Number', 'Reply to', 'Timecode', 'End', 'Author', 'Status', 'Comment'] as const;

/**
 * The comments as CSV: a UTF-8 byte order mark, CRLF line ends, the header
 * Number,Reply to,Timecode,End,Author,Status,Comment, then per thread in frame order a row
 * numbered 1, 2, 3 … followed by a row per reply, oldest first. A reply's row has no number of
 * its own and names the thread it answers in "Reply to"; it repeats the thread's timecodes and
 * status (Open/Resolved), so sorting by timecode or filtering by status keeps a conversation
 * together. A deleted thread kept for its replies is a row with the status "Deleted" and no text.
 */
export function toCsv(input: MarkerExport): string {
  const rows: string[][] = [];
  byFrame(input.comments).forEach((comment, i) => {
    const number = String(i + 1);
    const tcIn = frameToTimecode(comment.frame, input.rate);
    const tcOut = comment.endFrame != null ? frameToTimecode(comment.endFrame, input.rate) : '';
    const status = comment.deleted ? 'Deleted' : comment.resolved ? 'Resolved' : 'Open';
    rows.push([number, '', tcIn, tcOut, comment.author, status, comment.deleted ? '' : comment.text]);
    for (const reply of comment.replies ?? []) rows.push(['', number, tcIn, tcOut, reply.author, status, reply.text]);
  });
  return csvDocument(CSV_HEADER, rows);
}

// ---------------------------------------------------------------------------------------
// EDL (CMX3600 markers, as DaVinci Resolve exports and imports them).
// ---------------------------------------------------------------------------------------

/**
 * Where the EDL's timecodes start: frame 0 of the version is 01:00:00:00, the default start of a
 * Resolve (and most NLE) timeline, so the markers land on the right frames of a timeline
 * created with default settings.
 */
export const EDL_START_TIMECODE = '01:00:00:00';
/** CMX3600 titles are at most 70 characters. */
const EDL_TITLE_MAX = 70;

/** EDL text: one line, no `|` (Resolve's field separator). */
const edlText = (text: string) => oneLine(text.replaceAll('|', ' '));

/**
 * The comments as a marker EDL: per comment an event at the comment's frame, one frame long
 * (Resolve's own marker export), with the marker on the next line: open comments blue,
 * resolved green, the name "author: text" on one line, and the duration in frames.
 */
export function toEdl(input: MarkerExport): string {
  const { rate } = input;
  const start = timecodeToFrame(EDL_START_TIMECODE, rate)!;
  const title = [...edlText(`${input.projectName} ${versionLabel(input.version)}`)].slice(0, EDL_TITLE_MAX).join('');
  const lines = [`TITLE: ${title}`, `FCM: ${isDropFrame(rate) ? 'DROP FRAME' : 'NON-DROP FRAME'}`, ''];
  markerThreads(input.comments).forEach((comment, i) => {
    const tcIn = frameToTimecode(start + comment.frame, rate);
    const tcOut = frameToTimecode(start + comment.frame + 1, rate);
    const color = comment.resolved ? 'ResolveColorGreen' : 'ResolveColorBlue';
    const name = edlText(`${comment.author}: ${comment.text}`);
    lines.push(`${String(i + 1).padStart(3, '0')}  001      V     C        ${tcIn} ${tcOut} ${tcIn} ${tcOut}`);
    lines.push(` |C:${color} |M:${name} |D:${markerFrames(comment)}`);
    lines.push('');
  });
  return lines.join('\r\n');
}

// ---------------------------------------------------------------------------------------
// FCPXML 1.9.
// ---------------------------------------------------------------------------------------

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** `frames` as FCPXML rational seconds ("1001/30000s", "2s", "0s"), reduced. */
function rationalSeconds(frames: number, rate: FrameRate): string {
  if (frames === 0) return '0s';
  const num = frames * rate.den;
  const divisor = gcd(num, rate.num);
  const den = rate.num / divisor;
  return den === 1 ? `${num / divisor}s` : `${num / divisor}/${den}s`;
}

/**
 * Text for an XML attribute: the five special characters escaped, line breaks kept as
 * character references (a parser turns a raw line break in an attribute into a space), and
 * characters XML 1.0 cannot carry at all (control characters, lone surrogates) dropped.
 */
function xmlAttribute(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;')
    .replaceAll('\r', '&#13;')
    .replaceAll('\n', '&#10;')
    .replaceAll('\t', '&#9;');
}

const positive = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/**
 * The comments as FCPXML 1.9: one sequence at the version's frame rate holding a gap as long as
 * the version, with a marker per comment. Markers are to-do markers: `completed="0"` for an
 * open comment, `"1"` for a resolved one, so Final Cut's timeline index lists what is left.
 * The marker's `value` is "author: text" on one line; its `note` keeps the text's line breaks.
 */
export function toFcpxml(input: MarkerExport): string {
  const { rate } = input;
  const comments = markerThreads(input.comments);
  // A reduce, not a spread: a spread of 100k+ arguments overflows the call stack.
  const lastEnd = comments.reduce((end, c) => Math.max(end, c.frame + markerFrames(c)), Math.max(1, input.durationFrames));
  const size = positive(input.width) && positive(input.height) ? ` width="${input.width}" height="${input.height}"` : '';
  const name = xmlAttribute(`${input.projectName} ${versionLabel(input.version)}`);
  const markers = comments.map(
    (c) =>
      `              <marker start="${rationalSeconds(c.frame, rate)}" duration="${rationalSeconds(markerFrames(c), rate)}" value="${xmlAttribute(oneLine(`${c.author}: ${c.text}`))}" completed="${c.resolved ? 1 : 0}" note="${xmlAttribute(c.text)}"/>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE fcpxml>',
    '<fcpxml version="1.9">',
    '  <resources>',
    `    <format id="r1" frameDuration="${rationalSeconds(1, rate)}"${size}/>`,
    '  </resources>',
    '  <library>',
    `    <event name="${name}">`,
    `      <project name="${name}">`,
    `        <sequence format="r1" duration="${rationalSeconds(lastEnd, rate)}" tcStart="0s" tcFormat="${isDropFrame(rate) ? 'DF' : 'NDF'}">`,
    '          <spine>',
    `            <gap name="${name}" offset="0s" start="0s" duration="${rationalSeconds(lastEnd, rate)}">`,
    ...markers,
    '            </gap>',
    '          </spine>',
    '        </sequence>',
    '      </project>',
    '    </event>',
    '  </library>',
    '</fcpxml>',
    '',
  ].join('\n');
}
