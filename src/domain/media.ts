/**
 * The media pipeline's shared facts (issue 6): where derived objects live, the names of the
 * final video's files behind the app's media links, and the timings both sides use.
 */

/** Derived objects live under `projects/{id}/media/…`, a folder no browser credential may write. */
export const MEDIA_FOLDER = 'media/';

/** What the pipeline makes of a source object, by file-name suffix. */
export const DERIVED_SUFFIX = {
  thumbnail: '_thumb.jpg',
  /** The reduced proxy of a clip, and the final video's low-res preview (A§7 "_proxy.mp4"). */
  proxy: '_proxy.mp4',
  hd: '_hd.mp4',
  lowRes: '_lowres.mp4',
  /** A folder: `index.m3u8` (master) and one folder per variant. */
  hls: '_hls/',
} as const;
export type DerivedKind = keyof typeof DERIVED_SUFFIX;

/** `projects/7/final/cut.mov` → `projects/7/media/final/cut` + suffix. */
export function derivedKey(sourceKey: string, kind: DerivedKind): string {
  const match = /^(projects\/\d+\/)(.*)$/.exec(sourceKey);
  const [root, rest] = match ? [match[1]!, match[2]!] : ['', sourceKey];
  const slash = rest.lastIndexOf('/');
  const dir = rest.slice(0, slash + 1);
  const file = rest.slice(slash + 1);
  const dot = file.lastIndexOf('.');
  const stem = dot > 0 ? file.slice(0, dot) : file;
  return `${root}${MEDIA_FOLDER}${dir}${stem}${DERIVED_SUFFIX[kind]}`;
}

/** The file name part of a key. */
export function baseName(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}

/** A name without its extension + `_proxy.mp4` (the A§7 proxy name of a file). */
export function proxyName(name: string): string {
  const dot = name.lastIndexOf('.');
  return `${dot > 0 ? name.slice(0, dot) : name}${DERIVED_SUFFIX.proxy}`;
}

/**
 * The final video's files behind a media link `/api/v1/media/{token}/{file}`: the app URL
 * stays the same while the object is being made, answers 503 while it is (the UI says "being
 * processed"), 404 when it is missing or failed, and redirects to a short-lived presigned URL
 * once it exists. HLS playlists are answered by the app, their segments presigned.
 */
export const MEDIA_FILES = {
  preview: 'preview.mp4',
  stream: 'stream.m3u8',
  thumbnail: 'thumbnail.jpg',
  hd: 'hd.mp4',
  lowRes: 'low-res.mp4',
} as const;
export type MediaFile = keyof typeof MEDIA_FILES;

/** The media link of `file` beside another media link of the same project (e.g. the stream beside the preview). */
export function siblingMediaUrl(url: string, file: MediaFile): string | null {
  const match = /^(.*\/media\/[^/?#]+\/)[^?#]*$/.exec(url);
  return match ? `${match[1]}${MEDIA_FILES[file]}` : null;
}

/** How the media link answers a `Range: bytes=0-0` check. */
export type MediaAvailability = 'ready' | 'processing' | 'missing';

export function availabilityOf(status: number): MediaAvailability {
  if (status === 200 || status === 206 || status === 0 || (status >= 300 && status < 400)) return 'ready';
  if (status === 503 || status === 425 || status === 202) return 'processing';
  return 'missing';
}

/** Zip downloads (A§2): names and folders. */
export type ZipKind = 'raw' | 'proxy';
export function zipFileName(projectId: number, kind: ZipKind): string {
  return `project-${projectId}_${kind}_assets.zip`;
}
export const ZIP_FOLDERS = ['assets/', 'interviews/', 'b_roll/'] as const;

/**
 * Raw zips the server streams at once (issue 34), per instance and per staff member: a download
 * that stalls holds its reads open (with an external store, one of the S3 client's 50 sockets
 * each), so a few links must not tie up what every other request of the server needs.
 */
export const ZIP_STREAMS = { perInstance: 8, perUser: 3 } as const;

/** What the page says when the server does not start a raw zip (the link's HEAD answers the status). */
export const ZIP_MESSAGES = {
  yoursBusy: `${ZIP_STREAMS.perUser} zips of yours are downloading already. Start this one when one of them has finished.`,
  serverBusy: 'The server is sending as many zips as it can right now. Try again in a minute.',
  linkGone: 'The zip could not start: its link is no longer valid. Try again.',
} as const;

/**
 * How the media worker sends a streamed zip to the download service worker
 * (public/zip-download/sw.js): `entries` when that service worker also fetches the entries
 * whose CRC-32 the server knows itself (their bytes skip the worker), `chunks` when it asks for
 * the archive chunk by chunk (the worker can then read every entry into one buffer), else
 * `stream`, the archive as one transferred stream (a service worker from before, still in
 * control until it is replaced).
 */
export type StreamProtocol = 'entries' | 'chunks' | 'stream';

/**
 * The state of the final video's preview (the player's MP4, job 'final.preview') as the media
 * pipeline reports it: 'none' without a final video, 'processing' while its job is queued or
 * running (or not queued yet), 'ready' once made, 'failed' when it could not be made.
 */
export const FINAL_PREVIEW_STATES = ['none', 'processing', 'ready', 'failed'] as const;
export type FinalPreviewState = (typeof FINAL_PREVIEW_STATES)[number];

/**
 * The preview state of a project's final video (`finalVideoPath`) from the status of the latest
 * live (not cancelled) 'final.preview' job of that very object (null when none is queued): the
 * same reading as the media link, which answers "being processed" until the preview exists.
 */
export function finalPreviewState(finalVideoPath: string | null, previewJobStatus: string | null): FinalPreviewState {
  if (!finalVideoPath) return 'none';
  if (previewJobStatus === 'done') return 'ready';
  if (previewJobStatus === 'failed') return 'failed';
  return 'processing';
}
