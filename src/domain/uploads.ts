import { BYTES_PER_TB } from './constants.ts';
import { decide, STAFF_UPLOAD_BLOCKED, type Decision } from './project-rules.ts';
import type { ProjectStatus } from './project-status.ts';
import { isCustomerRole, isManagerRole, type RoleName } from './roles.ts';

/**
 * The upload rules of C§4, C§5, A§4 and ARCHITECTURE §4, shared by the upload worker, the UI
 * and the server: part plan, names, accepted files, storage quota, retry policy, key layout.
 */

export const MiB = 1024 * 1024;
/** Files under this size go in one PUT; larger ones go multipart (A§4: "under 20 MB … one piece"). */
export const SINGLE_PUT_LIMIT = 20 * MiB;
/** A§9: 20,971,520-byte parts. */
export const PART_SIZE = 20_971_520;
/** A§9: 6 parts in flight. */
export const PARALLEL_PARTS = 6;
/** A§4: a failed request is tried up to 20 times, 200 ms apart, before the file becomes incomplete. */
export const MAX_ATTEMPTS = 20;
export const RETRY_DELAY_MS = 200;
/** S3's limits: at most 10,000 parts, each at least 5 MiB (except the last). */
export const MAX_PARTS = 10_000;
export const MIN_PART_SIZE = 5 * MiB;
/** Multipart uploads not completed within this many days are aborted by the server. */
export const ABANDONED_UPLOAD_DAYS = 7;
/** Temporary upload credentials live this long; the worker asks for new ones before they expire. */
export const CREDENTIALS_LIFETIME_SECONDS = 3600;
export const CREDENTIALS_REFRESH_MARGIN_MS = 5 * 60_000;
/**
 * C§5 "plus a tiny tolerance": rounding between TB and bytes must never refuse a file that
 * fits, so a batch may exceed the remaining space by at most 1 MiB.
 * @alias the same number as MiB, named for what it means here.
 */
export const QUOTA_TOLERANCE_BYTES = MiB;

export const UPLOAD_MESSAGES = {
  noMoreMemory: 'There is no more memory.',
  waitForUploads: 'Please wait while the assets finish uploading.',
  notAccepted: (accept: string) => `Only ${accept} files can be uploaded here.`,
  notSameFile: 'This is not the file that was being uploaded. Pick the same file (same name, size and date) to resume.',
  objectMissing: 'The uploaded file was not found in storage. Upload it again.',
  sizeMismatch: 'The stored file does not have the declared size. Upload it again.',
  pathOutside: "The file must be stored under this project's upload folder.",
  deleteAllStatus: 'All assets can be deleted only while the project is in assembly, approved or archived.',
  staffCannotChangeAssets: "Staff do not change a customer's raw files.",
  deliverableOnly: 'Staff upload only the final video.',
  customerAssetsOnly: 'Customers upload raw files only.',
  failedAfterRetries: 'The upload failed after several attempts. Check your connection and resume it.',
  /** A 413 on an upload request: no S3 store answers it (too large is their 400), a proxy in front did (issue 32). */
  tooLargeForProxy:
    'A proxy in front of Cutdesk refused this upload as too large (413). Ask your administrator to raise its request size limit (client_max_body_size in nginx; see docs/operations.md), then resume the upload.',
  /** A 507 from the store: its disk is full (issue 32); what was sent is kept. */
  storageFull:
    'The storage of Cutdesk is full (507): nothing more can be stored until space is freed. What was sent is kept: ask your administrator to free space, then resume the upload.',
  offline: 'You are offline. The upload resumes when the connection is back.',
  needsFile: 'Select the file again to resume this upload.',
  needsPermission: 'Allow access to the file again to resume this upload.',
} as const;

// ——— Asset types ———

export const ASSET_TYPES = ['ASSET', 'INTERVIEW_CLIP', 'BROLL_CLIP'] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

/** The `type` query values of C§7, and the type names of C§3. */
export const ASSET_TYPE_QUERY = { Asset: 'ASSET', InterviewClip: 'INTERVIEW_CLIP', BRollClip: 'BROLL_CLIP' } as const satisfies Record<string, AssetType>;
export type AssetTypeQuery = keyof typeof ASSET_TYPE_QUERY;
export const QUERY_OF_TYPE: Record<AssetType, AssetTypeQuery> = { ASSET: 'Asset', INTERVIEW_CLIP: 'InterviewClip', BROLL_CLIP: 'BRollClip' };

/** Every spelling the specs use for a type (C§7 query names, C§3 names, A§3's B_ROLL_CLIP) → the type. */
export function parseAssetType(value: unknown): AssetType | null {
  if (typeof value !== 'string') return null;
  if (value in ASSET_TYPE_QUERY) return ASSET_TYPE_QUERY[value as AssetTypeQuery];
  if ((ASSET_TYPES as readonly string[]).includes(value)) return value as AssetType;
  if (value === 'B_ROLL_CLIP') return 'BROLL_CLIP';
  return null;
}

export const ASSET_TYPE_LABELS: Record<AssetType, string> = { INTERVIEW_CLIP: 'Interview clips', BROLL_CLIP: 'B-roll clips', ASSET: 'Image assets' };
/** A§2 zip folders, also the folders of the object keys. */
export const ASSET_FOLDERS: Record<AssetType, string> = { ASSET: 'assets', INTERVIEW_CLIP: 'interviews', BROLL_CLIP: 'b_roll' };

/** Raw material of the customer, or the final video staff deliver. */
export const UPLOAD_TYPES = ['asset', 'deliverable'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];

// ——— Object keys ———

/** Every object of a project lives under this prefix. */
export function projectPrefix(projectId: number): string {
  return `projects/${projectId}/`;
}

/** What temporary credentials of an upload type may touch: raw files or final videos, never both. */
export function uploadPrefix(projectId: number, uploadType: UploadType): string {
  return `${projectPrefix(projectId)}${uploadType === 'asset' ? 'raw' : 'final'}/`;
}

export function assetFolderPrefix(projectId: number, type: AssetType): string {
  return `${uploadPrefix(projectId, 'asset')}${ASSET_FOLDERS[type]}/`;
}

/** The key of a final video uploaded at `time` (ms) as `name`: ASCII whatever the name (`objectKeyName`), unique by time. */
export function deliverableKey(projectId: number, time: number, name: string): string {
  return `${uploadPrefix(projectId, 'deliverable')}${time}-${objectKeyName(name)}`;
}

/** The key of an asset named `name`: ASCII whatever the name (`objectKeyName`). */
export function assetKey(projectId: number, type: AssetType, name: string): string {
  return `${assetFolderPrefix(projectId, type)}${objectKeyName(name)}`;
}

// ——— Names ———

/** Longest name a person sees (characters, extension included). */
export const MAX_FILE_NAME_LENGTH = 180;
/**
 * And at most this many bytes in UTF-8: the name of a file on ext4, APFS and NTFS, so a
 * download or an unzipped entry keeps the whole name (85 CJK characters).
 */
export const MAX_FILE_NAME_BYTES = 255;
/** Longest extension kept as one (`.jpeg`, `.m2ts`); a longer "extension" is part of the name. */
const MAX_EXTENSION_LENGTH = 16;

/** The UTF-8 bytes of `text` (the domain runs where TextEncoder is not declared). */
function utf8Bytes(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  return out;
}

function utf8Length(text: string): number {
  let size = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    size += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return size;
}

/** `name` cut to at most `chars` code points and `bytes` UTF-8 bytes (never inside a character). */
function cutName(name: string, chars: number, bytes: number): string {
  let out = '';
  let count = 0;
  let size = 0;
  for (const ch of name) {
    const width = utf8Length(ch);
    if (count + 1 > chars || size + width > bytes) break;
    out += ch;
    count += 1;
    size += width;
  }
  return out;
}

/** A name's base and extension (with its dot): the extension is letters and digits after the last dot. */
function splitExtension(name: string): { base: string; ext: string } {
  const dot = name.lastIndexOf('.');
  const ext = dot >= 0 ? name.slice(dot) : '';
  if (ext.length < 2 || ext.length > MAX_EXTENSION_LENGTH + 1 || !/^\.[\p{L}\p{N}]+$/u.test(ext)) return { base: name, ext: '' };
  return { base: name.slice(0, dot), ext };
}

/** A base without dots or spaces at either end (no hidden files; Windows drops trailing ones), else `file`. */
function trimBase(base: string): string {
  return base.replace(/^[. ]+|[. ]+$/g, '') || 'file';
}

/** `base` + `ext` within the length limits, the base cut first. */
function fitName(base: string, ext: string): string {
  const room = (limit: number, taken: number) => Math.max(0, limit - taken);
  return trimBase(cutName(base, room(MAX_FILE_NAME_LENGTH, [...ext].length), room(MAX_FILE_NAME_BYTES, utf8Length(ext)))) + ext;
}

/**
 * C§5 / A§5: the name of an uploaded file keeps letters, digits, `-`, `_` and `.` only, where
 * letters and digits are those of every script (Unicode letters with their accents, digits),
 * and spaces stay (issue 36: "b roll café 日本.mov" is shown and downloaded as such). NFC first
 * (one spelling of "é"); control, format (bidi overrides, zero-width) and every other character
 * go, path separators included; runs of spaces become one, none at either end of the base.
 * Leading dots go too (no hidden files), an empty base becomes `file`, and a long name is cut
 * (at most 180 characters and 255 UTF-8 bytes) keeping its extension. The object key is another,
 * ASCII name: `objectKeyName`.
 */
export function sanitizeFileName(name: string): string {
  const clean = name
    .normalize('NFC')
    .replace(/\p{Cf}/gu, '')
    .replace(/[\s\p{Z}]+/gu, ' ')
    .replace(/[^\p{L}\p{M}\p{N} ._-]/gu, '')
    // An accent needs a letter to sit on (after a stripped character it would join the one before).
    .replace(/(^|[^\p{L}\p{M}\p{N}])\p{M}+/gu, '$1')
    .replace(/ {2,}/g, ' ')
    // Again: a stripped character between a letter and its accent ("A", U+202E, U+0301) lets the
    // two compose now, and the name must be the same when it is cleaned a second time.
    .normalize('NFC')
    // Dots and spaces at the end go before the extension is found: "A .mov." has the extension
    // ".mov", as it has once the dot is gone (a second cleaning changes nothing).
    .replace(/[. ]+$/, '');
  const { base, ext } = splitExtension(clean);
  return fitName(trimBase(base), ext);
}

/** Letters ASCII has no decomposition for, spelled as people spell them in ASCII. */
const ASCII_SPELLING: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  ø: 'o',
  Ø: 'O',
  œ: 'oe',
  Œ: 'OE',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  þ: 'th',
  Þ: 'Th',
  ð: 'd',
  Ð: 'D',
  ı: 'i',
};

/** FNV-1a (32 bits) of the UTF-8 bytes, as 8 hex digits: tells names apart that fold alike. */
function nameHash(name: string): string {
  let hash = 0x811c9dc5;
  for (const byte of utf8Bytes(name)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

const KEY_SAFE = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/**
 * The last segment of an object key for a file named `name`: ASCII letters, digits, `-`, `_`
 * and `.` only (the spec's rule taken literally, safe in any S3 service, URL and shell). A name
 * already made of those is its own key (the layout of every existing object); any other is
 * spelled in ASCII (accents dropped, spaces as `_`) and followed by 8 hex digits of the name,
 * so two names that spell alike ("日本.mov", "中国.mov") get two keys.
 */
export function objectKeyName(name: string): string {
  const display = sanitizeFileName(name);
  if (KEY_SAFE.test(display) && display.length <= MAX_FILE_NAME_LENGTH) return display;
  const { base, ext } = splitExtension(display);
  const ascii = (text: string) =>
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[^A-Za-z0-9._ -]/gu, (ch) => ASCII_SPELLING[ch] ?? '')
      .replace(/ /g, '_');
  const asciiBase = ascii(base)
    .slice(0, 100)
    .replace(/^[._-]+|[._-]+$/g, '');
  const asciiExt = ascii(ext.slice(1)).slice(0, MAX_EXTENSION_LENGTH);
  return `${asciiBase ? `${asciiBase}-` : 'file-'}${nameHash(display)}${asciiExt ? `.${asciiExt}` : ''}`;
}

/**
 * The n-th alternative of a name when it is taken: `clip.mp4`, `clip-1.mp4`, `clip-2.mp4`…,
 * within the same length limits.
 */
export function nameVariant(name: string, n: number): string {
  if (n === 0) return name;
  const { base, ext } = splitExtension(name);
  return fitName(base, `-${n}${ext}`);
}

// ——— Accepted files ———

export const VIDEO_EXTENSIONS = ['.mp4', '.mov', '.m4v', '.avi', '.mkv', '.mts', '.m2ts', '.mxf', '.webm', '.wmv', '.mpg', '.mpeg', '.3gp'] as const;
export const IMAGE_EXTENSIONS = ['.jpg', '.jpeg', '.png', '.gif', '.webp', '.heic', '.heif', '.tif', '.tiff', '.bmp', '.avif'] as const;

export type AcceptKind = 'video' | 'image';
export const ACCEPT_OF_TYPE: Record<AssetType, AcceptKind> = { INTERVIEW_CLIP: 'video', BROLL_CLIP: 'video', ASSET: 'image' };

/** The `accept` attribute of a file input: C§5 video/* or image/*. */
export function acceptAttribute(kind: AcceptKind): string {
  return `${kind}/*`;
}

/**
 * C§5: interview and b-roll take video/*, assets take image/*. Some systems report no type
 * for professional formats (.mts, .mxf): then the extension decides.
 */
export function acceptsFile(kind: AcceptKind, file: { name: string; type: string }): boolean {
  const lower = file.name.toLowerCase();
  // SVG is image/* but a document that runs script: the server refuses it, so the zone does too.
  if (lower.endsWith('.svg') || /svg|xml|html/i.test(file.type)) return false;
  if (file.type) return file.type.toLowerCase().startsWith(`${kind}/`);
  const extensions: readonly string[] = kind === 'video' ? VIDEO_EXTENSIONS : IMAGE_EXTENSIONS;
  return extensions.some((ext) => lower.endsWith(ext));
}

/** The content type stored with the object: the browser's, else one guessed from the extension. */
export function contentTypeOf(file: { name: string; type: string }): string {
  if (file.type) return file.type;
  const ext = file.name.toLowerCase().slice(file.name.lastIndexOf('.'));
  const known: Record<string, string> = {
    '.mts': 'video/mp2t',
    '.m2ts': 'video/mp2t',
    '.mxf': 'application/mxf',
    '.mkv': 'video/x-matroska',
    '.heic': 'image/heic',
    '.heif': 'image/heif',
  };
  return known[ext] ?? 'application/octet-stream';
}

// ——— Part plan ———

export interface PlannedPart {
  partNumber: number;
  /** First byte (inclusive). */
  start: number;
  /** Byte after the last one (exclusive). */
  end: number;
  size: number;
}

export type PartPlan = { mode: 'single'; size: number } | { mode: 'multipart'; size: number; partSize: number; parts: PlannedPart[] };

/**
 * One request under 20 MiB; otherwise 20,971,520-byte parts. Past 10,000 parts (files over
 * about 200 GiB) the part size grows in whole MiB so S3's part limit holds. (The upload
 * engine's tests cut at S3's smallest part, 5 MiB, to move a quarter of the bytes.)
 */
export function planParts(size: number, partSize = PART_SIZE, singlePutLimit = SINGLE_PUT_LIMIT): PartPlan {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`invalid file size ${size}`);
  if (size < singlePutLimit) return { mode: 'single', size };
  let chosen = Math.max(partSize, MIN_PART_SIZE);
  if (Math.ceil(size / chosen) > MAX_PARTS) chosen = Math.ceil(size / MAX_PARTS / MiB) * MiB;
  const count = Math.ceil(size / chosen);
  const parts: PlannedPart[] = [];
  for (let index = 0; index < count; index += 1) {
    const start = index * chosen;
    const end = Math.min(size, start + chosen);
    parts.push({ partNumber: index + 1, start, end, size: end - start });
  }
  return { mode: 'multipart', size, partSize: chosen, parts };
}

// ——— Storage quota ———

export interface StorageFigures {
  /** Quota in TB. */
  storageTb: number;
  /** Bytes in use. */
  usedSpace: number;
}

export function quotaBytes(storageTb: number): number {
  return Math.round(storageTb * BYTES_PER_TB);
}

/**
 * The largest used space an organization may reach: its quota plus the C§5 tolerance. The one
 * quota rule: the worker's check below and the server's conditional UPDATE
 * (server/repositories/assets.ts `addUsedSpace`) both compare against it.
 */
export function usedSpaceCeiling(storageTb: number): number {
  return quotaBytes(storageTb) + QUOTA_TOLERANCE_BYTES;
}

/**
 * C§5: a batch is refused when its total exceeds the remaining storage plus the tolerance,
 * that is when the used space, the uploads still pending and the batch pass `usedSpaceCeiling`.
 */
export function quotaAllows(totalBytes: number, figures: StorageFigures, pendingBytes = 0): boolean {
  return figures.usedSpace + pendingBytes + totalBytes <= usedSpaceCeiling(figures.storageTb);
}

// ——— Retry policy ———

/** S3 error codes worth another attempt (throttling, timeouts, server trouble). */
const RETRYABLE_CODES = new Set([
  'RequestTimeout',
  'SlowDown',
  'InternalError',
  'ServiceUnavailable',
  'RequestTimeTooSkewed',
  'ExpiredToken',
  'TokenRefreshRequired',
  // Issue 35: the bytes that arrived are not the ones read (a part corrupted on the way): the
  // store kept none of them, and the same part sent again arrives whole.
  'BadDigest',
]);

/**
 * Whether a failed request deserves another attempt: network failures (status 0), 5xx but 507,
 * 408 and 429, and the S3 codes above (expired credentials are refreshed first). A store whose
 * disk is full (507) stays full for longer than any back-off: the person is told instead.
 */
export function isRetryable(status: number, code?: string): boolean {
  if (code && RETRYABLE_CODES.has(code)) return true;
  if (status === STORAGE_FULL) return false;
  return status === 0 || status === 408 || status === 429 || status >= 500;
}

/** 507 Insufficient Storage: the store's disk is full (server/storage/disk-full.ts). */
export const STORAGE_FULL = 507;

/** Credentials problems that new credentials may cure. */
const CREDENTIAL_CODES = new Set(['ExpiredToken', 'InvalidAccessKeyId', 'InvalidToken', 'TokenRefreshRequired']);

export function needsNewCredentials(status: number, code?: string): boolean {
  return (status === 400 || status === 403) && code !== undefined && CREDENTIAL_CODES.has(code);
}

/** A§4: attempts are spaced by a constant 200 ms. */
export function retryDelay(_attempt: number): number {
  return RETRY_DELAY_MS;
}

// ——— Who may upload where ———

/**
 * C§4 / A§4: customers upload raw files while the project is OPENED ('change-assets');
 * SUPERADMIN and ADMIN upload the final video unless the project is OPENED, waiting for an
 * editor or deleted; an EDITOR does not upload.
 */
export function uploadDecision(role: RoleName, status: ProjectStatus, uploadType: UploadType): Decision {
  if (isCustomerRole(role)) {
    if (uploadType !== 'asset') return { allowed: false, status: 403, message: UPLOAD_MESSAGES.customerAssetsOnly };
    return decide('change-assets', role, { status, hasFinalPreview: false, hasEditor: false });
  }
  if (!isManagerRole(role)) return { allowed: false, status: 403, message: 'You do not have permission to do this.' };
  if (uploadType !== 'deliverable') return { allowed: false, status: 403, message: UPLOAD_MESSAGES.deliverableOnly };
  if (STAFF_UPLOAD_BLOCKED.includes(status))
    return {
      allowed: false,
      status: 409,
      message: `The final video cannot be uploaded while the project is ${status === 'OPENED' ? 'not published' : status === 'WAITING_FOR_EDITOR' ? 'waiting for an editor' : 'deleted'}.`,
    };
  return { allowed: true, next: null };
}

/** C§4: delete-all is allowed only for approved, opened or archived projects. */
export const DELETE_ALL_STATUSES: readonly ProjectStatus[] = ['OPENED', 'APPROVED', 'ARCHIVED'];

export function canDeleteAllAssets(status: ProjectStatus): boolean {
  return DELETE_ALL_STATUSES.includes(status);
}

// ——— Progress figures ———

export interface ProgressSample {
  /** Milliseconds (any clock). */
  at: number;
  /** Bytes sent so far in this session. */
  bytes: number;
}

/** Bytes per second over the samples of the last `windowMs`; 0 without enough history. */
export function rateFromSamples(samples: readonly ProgressSample[], now: number, windowMs = 5_000): number {
  const recent = samples.filter((s) => now - s.at <= windowMs);
  if (recent.length < 2) return 0;
  const first = recent[0]!;
  const last = recent[recent.length - 1]!;
  const seconds = (last.at - first.at) / 1000;
  return seconds > 0.2 ? Math.max(0, (last.bytes - first.bytes) / seconds) : 0;
}

/**
 * Whether a part's request should report its bytes while they go (XHR upload progress; each
 * report is a message and an event in the upload worker, some ten a second per request in
 * flight — issue 14: a fifth to a quarter of the renderer's CPU per GiB at 100 MB/s, while the
 * bar is drawn twice a second).
 *   - Slower than a part per `shownEveryMs` (or at an unknown speed, 0: the upload just began):
 *     every part reports, so the bar and the time left follow every byte.
 *   - Faster: one part in flight reports (`reporting`: how many do now) and the others count
 *     when stored. Parts started together finish together, so with none reporting the bar
 *     stood still for a whole wave of parts; one keeps it moving between waves.
 */
export function partProgressWanted(bytesPerSecond: number, partSize: number, shownEveryMs: number, reporting: number): boolean {
  return reporting === 0 || bytesPerSecond * (shownEveryMs / 1000) < partSize;
}

/** Seconds left at the current rate; null when unknown. */
export function secondsLeft(remaining: number, bytesPerSecond: number): number | null {
  if (remaining <= 0) return 0;
  return bytesPerSecond > 0 ? Math.ceil(remaining / bytesPerSecond) : null;
}

export function percentOf(loaded: number, total: number): number {
  if (total <= 0) return loaded >= total ? 100 : 0;
  return Math.min(100, Math.floor((loaded / total) * 100));
}

/** "about 3 min left", "12 s left". */
export function formatTimeLeft(seconds: number | null): string {
  if (seconds === null) return 'estimating…';
  if (seconds < 60) return `${Math.max(1, seconds)} s left`;
  if (seconds < 3600) return `about ${Math.round(seconds / 60)} min left`;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.round((seconds % 3600) / 60);
  return `about ${hours} h ${minutes} min left`;
}

/** Megabytes per second, for speed read-outs. */
export function formatSpeed(bytesPerSecond: number): string {
  if (bytesPerSecond <= 0) return '—';
  const mb = bytesPerSecond / MiB;
  return mb >= 1 ? `${mb.toFixed(mb < 10 ? 1 : 0)} MB/s` : `${Math.round(bytesPerSecond / 1024)} KB/s`;
}

/**
 * The uploads panel's overall line (issue 12): bytes and percent of the uploads still queued
 * or running only, the ones whose bars the panel shows. Counting finished files too made the
 * header say 100 % while the bars under it were half full.
 */
export function runningProgress(items: readonly { status: string; size: number; loaded: number }[]): { size: number; loaded: number; percent: number } {
  const running = items.filter((item) => item.status === 'queued' || item.status === 'uploading');
  const size = running.reduce((sum, item) => sum + item.size, 0);
  const loaded = running.reduce((sum, item) => sum + Math.min(item.loaded, item.size), 0);
  return { size, loaded, percent: running.length ? percentOf(loaded, size) : 0 };
}
