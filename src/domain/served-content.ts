/**
 * How stored objects may be served to a browser (issue 9). Objects hold what customers sent;
 * served from the app's own origin with an active type (HTML, SVG, XML, script) they would run
 * as our own pages, with the session token in reach. So:
 *
 * - an object is only ever served with a passive type: an active or malformed one becomes
 *   `application/octet-stream`;
 * - it is an attachment (saved, never rendered) unless its type is one the player and the
 *   pages show in place: MP4, HLS playlists and segments, raster thumbnails and images;
 * - presigned GETs name the type and disposition themselves (response-content-type /
 *   -disposition), so the same holds with a separate S3 endpoint that sends neither
 *   nosniff nor a sandbox.
 */

export const OCTET_STREAM = 'application/octet-stream';

/** Shown in place: what `<video>`, hls.js and `<img>` need. Everything else is an attachment. */
export const INLINE_TYPES: ReadonlySet<string> = new Set([
  'video/mp4',
  'application/vnd.apple.mpegurl',
  'application/x-mpegurl',
  'video/mp2t',
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
]);

/** Passive types by extension, for presigned GETs (the stored type is the uploader's word). */
const TYPE_OF_EXTENSION: Readonly<Record<string, string>> = {
  mp4: 'video/mp4',
  m4v: 'video/x-m4v',
  mov: 'video/quicktime',
  '3gp': 'video/3gpp',
  mkv: 'video/x-matroska',
  webm: 'video/webm',
  avi: 'video/x-msvideo',
  mts: 'video/mp2t',
  m2ts: 'video/mp2t',
  ts: 'video/mp2t',
  mxf: 'application/mxf',
  wmv: 'video/x-ms-wmv',
  flv: 'video/x-flv',
  mpg: 'video/mpeg',
  mpeg: 'video/mpeg',
  m3u8: 'application/vnd.apple.mpegurl',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  heic: 'image/heic',
  heif: 'image/heif',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  bmp: 'image/bmp',
};

/** `type/subtype`, lower-case, without parameters; null when it is not a media type at all. */
export function essenceOf(contentType: string | undefined | null): string | null {
  if (!contentType) return null;
  const essence = contentType.split(';')[0]!.trim().toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(essence) ? essence : null;
}

/**
 * Subtypes a browser renders as a document or runs: markup (HTML, XHTML, SVG, any XML, XSL),
 * script, style sheets, PDF (a viewer with its own script), Flash, and multipart answers that
 * can carry any of them.
 */
const ACTIVE_SUBTYPE = /html|xml|svg|xsl|script|css|pdf|shockwave|flash|x-mixed-replace|cache-manifest|wasm/;
const PASSIVE_TOP = new Set(['video', 'audio', 'image', 'application', 'font', 'model']);
/** S3's own default type, and plain text kinds no browser runs. */
const PASSIVE_OTHER = new Set(['binary/octet-stream', 'text/plain', 'text/csv', 'text/vtt']);

/** Whether a browser may get this type from our origin as it is (never markup, script or style). */
export function isPassiveType(contentType: string | undefined | null): boolean {
  const essence = essenceOf(contentType);
  if (!essence) return false;
  const [top, subtype] = essence.split('/') as [string, string];
  if (ACTIVE_SUBTYPE.test(subtype)) return false;
  return PASSIVE_TOP.has(top) || PASSIVE_OTHER.has(essence);
}

/** The type to serve: the given one when passive, else an opaque download. */
export function servedType(contentType: string | undefined | null): string {
  return isPassiveType(contentType) ? contentType!.trim() : OCTET_STREAM;
}

/** Whether the served type may be shown in place (not forced to a download). */
export function isInlineType(contentType: string | undefined | null): boolean {
  const essence = essenceOf(contentType);
  return essence !== null && INLINE_TYPES.has(essence);
}

/**
 * The Content-Disposition to send with an object of `contentType`: what was asked (stored
 * or by the request) when the type may show in place, else an attachment (keeping a file
 * name that was asked for).
 */
export function servedDisposition(contentType: string, requested: string | undefined): string | undefined {
  if (isInlineType(contentType)) return requested;
  if (requested && /^\s*attachment\s*(;|$)/i.test(requested)) return requested;
  return 'attachment';
}

/** The last segment of a key: the name a download is saved under. */
export function keyBaseName(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1) || 'download';
}

/** A passive type for a key, from its extension; unknown extensions are opaque downloads. */
export function typeForKey(key: string): string {
  const name = keyBaseName(key);
  const dot = name.lastIndexOf('.');
  return (dot > 0 && TYPE_OF_EXTENSION[name.slice(dot + 1).toLowerCase()]) || OCTET_STREAM;
}

export interface PresignedPresentation {
  contentType: string;
  /** `inline`, or an attachment saved under `fileName`. */
  inline: boolean;
  fileName: string;
}

/** What a presigned GET of `key` names: its passive type, inline for player media, else an attachment. */
export function presentationFor(key: string, downloadName?: string): PresignedPresentation {
  const contentType = typeForKey(key);
  return { contentType, inline: downloadName === undefined && isInlineType(contentType), fileName: downloadName ?? keyBaseName(key) };
}
