import { acceptsFile, sanitizeFileName, type AcceptKind } from './uploads.ts';

/**
 * Issue 35, folders: what a card or a folder dropped on an upload zone holds, sorted the way the
 * zone takes it. Shared by the page (what to queue, the one-line summary) and the server (the
 * folder an asset keeps).
 */

/**
 * Files cameras, drones and recorders write beside their clips (thumbnails, metadata sidecars,
 * proxies, playlists, clip indexes), and what operating systems leave on a card. Skipped, counted.
 */
const CAMERA_EXTENSIONS = new Set([
  'thm', // thumbnail (Canon, GoPro, Sony)
  'xml', // Sony/Canon clip metadata
  'lrv', // GoPro low-resolution proxy
  'lrf', // DJI low-resolution proxy
  'srt', // DJI flight telemetry subtitles
  'bim', // Sony AVCHD index
  'cpi', // AVCHD clip information
  'mpl', // AVCHD playlist
  'bdm', // AVCHD index
  'ind', // Sony index
  'idx',
  'ppn', // Sony clip index
  'smi', // Sony XDCAM index
  'bin', // camera firmware and settings
  'dat',
  'ctg', // Canon catalogue
  'scr',
  'log',
  'ini',
  'db',
  'tmp',
]);
/** Names operating systems leave in folders. */
const SYSTEM_NAMES = new Set(['.ds_store', 'thumbs.db', 'desktop.ini', '.spotlight-v100', '.trashes', '.fseventsd']);
/** Folders whose files are no footage: the bins of Windows and macOS, an archiver's leftovers. */
const SYSTEM_FOLDERS = new Set(['$recycle.bin', 'system volume information', '__macosx']);

export type CardFileKind = 'clip' | 'camera' | 'other';

/**
 * A file found in a dropped folder: a clip the zone takes, a camera or system file (skipped and
 * counted as such), or another file (skipped too: a PDF in the footage folder is no clip).
 */
export function cardFileKind(kind: AcceptKind, file: { name: string; type: string }, relativePath = ''): CardFileKind {
  // A clip in a hidden or system folder (macOS's .Trashes, Windows's $RECYCLE.BIN) was deleted
  // or hidden on the card: never footage to send.
  const folders = relativePath
    .toLowerCase()
    .split(/[\\/]+/)
    .slice(0, -1);
  if (folders.some((level) => level.startsWith('.') || SYSTEM_FOLDERS.has(level))) return 'camera';
  const lower = file.name.toLowerCase();
  // Hidden files (macOS "._clip.mp4" resource forks included) are never footage.
  if (lower.startsWith('.') || SYSTEM_NAMES.has(lower)) return 'camera';
  const dot = lower.lastIndexOf('.');
  if (dot > 0 && CAMERA_EXTENSIONS.has(lower.slice(dot + 1))) return 'camera';
  return acceptsFile(kind, file) ? 'clip' : 'other';
}

/** The files of a dropped folder, sorted: the clips to queue, and how many of the rest were skipped as what. */
export function sortCardFiles<T extends { file: { name: string; type: string }; relativePath?: string }>(
  kind: AcceptKind,
  entries: readonly T[],
): { clips: T[]; camera: number; other: number } {
  const sorted = { clips: [] as T[], camera: 0, other: 0 };
  for (const entry of entries) {
    const found = cardFileKind(kind, entry.file, entry.relativePath);
    if (found === 'clip') sorted.clips.push(entry);
    else sorted[found] += 1;
  }
  return sorted;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The one line a folder drop ends with: "132 clips queued, 41 camera files skipped". */
export function folderDropSummary(counts: { queued: number; camera: number; other: number }, kind: AcceptKind): string {
  const noun = kind === 'video' ? ['clip', 'clips'] : ['image', 'images'];
  const parts = [`${plural(counts.queued, noun[0]!, noun[1]!)} queued`];
  if (counts.camera > 0) parts.push(`${plural(counts.camera, 'camera file', 'camera files')} skipped`);
  if (counts.other > 0) parts.push(`${plural(counts.other, 'other file', 'other files')} skipped`);
  return parts.join(', ');
}

/**
 * At most this many folder levels and characters are kept of where a file sat in a dropped
 * folder: a card's own layout is a few short levels ("PRIVATE/M4ROOT/CLIP"), and a zip's paths
 * must stay within what Windows extracts (260 characters, the extraction folder included).
 */
export const MAX_FOLDER_DEPTH = 12;
export const MAX_FOLDER_LENGTH = 160;

/**
 * The folder a file sat in, from its path relative to the dropped folder ("CARD/DCIM/100MSDCF/
 * C0001.MP4" → "CARD/DCIM/100MSDCF"): each level cleaned as a file name is, `.`, `..` and empty
 * levels dropped, deeper levels than MAX_FOLDER_DEPTH dropped, null when nothing is left. It is
 * shown and becomes the asset's folder in zips, never a part of an object key.
 */
export function folderOf(relativePath: string): string | null {
  const levels = relativePath.split(/[\\/]+/).slice(0, -1);
  return cleanFolder(levels.join('/'));
}

/** A folder as the server keeps it (the same cleaning as folderOf, for a folder sent alone). */
export function cleanFolder(folder: string): string | null {
  const levels: string[] = [];
  for (const level of folder.split(/[\\/]+/)) {
    if (level === '' || level === '.' || level === '..') continue;
    // Leading dots first: ".hidden" would read as an extension with no name ("file.hidden").
    const clean = sanitizeFileName(level.replace(/^\.+/, ''));
    // sanitizeFileName names an empty base "file": a level made only of stripped characters goes.
    if (clean === 'file' && !/^\.*file[. ]*$/i.test(level.trim())) continue;
    levels.push(clean);
    if (levels.length === MAX_FOLDER_DEPTH) break;
  }
  let joined = levels.join('/');
  while (joined.length > MAX_FOLDER_LENGTH) joined = joined.slice(0, joined.lastIndexOf('/'));
  return joined === '' ? null : joined;
}
