import { ACCEPT_OF_TYPE, type AcceptKind, type AssetType } from './uploads.ts';

/**
 * What the server accepts as a clip or an image, decided from the file's own first bytes
 * (its "magic"), never from the name or the Content-Type the uploader sent (issue 9). The
 * server sniffs the stored object (a ranged GET of SNIFF_BYTES) and hands the result here.
 *
 * Clips: only real media containers whose demuxer reads nothing but the file itself. An HLS
 * playlist, an ffconcat or concat list, an image sequence or any text naming other files or
 * URLs has no container signature and is refused: ffprobe/ffmpeg would fetch what it names
 * from the server. Each accepted container maps to the one demuxer the pipeline forces with
 * `-f`, so ffmpeg never guesses a format from the content.
 *
 * Images: C§5's image/*, but only raster formats a signature proves. SVG and HTML are text
 * (they have no signature) and run script when opened, so they are never images here.
 */

/** Enough for every signature we accept (the `file-type` package's own sample size). */
export const SNIFF_BYTES = 4100;

/** What a signature says: an extension and a media type, as `file-type` answers. */
export interface Sniffed {
  ext: string;
  mime: string;
}

/** The ffmpeg demuxers a clip may be read with: containers that do not open other files or URLs. */
export const VIDEO_DEMUXERS = ['mov', 'matroska', 'avi', 'mpegts', 'mxf', 'flv', 'mpeg', 'asf'] as const;
export type VideoDemuxer = (typeof VIDEO_DEMUXERS)[number];

/** Sniffed container (file-type's `ext`) → demuxer. MP4, MOV, M4V, 3GP and F4V are all ISO-BMFF. */
const DEMUXER_OF_CONTAINER: Readonly<Record<string, VideoDemuxer>> = {
  mp4: 'mov',
  mov: 'mov',
  m4v: 'mov',
  '3gp': 'mov',
  '3g2': 'mov',
  f4v: 'mov',
  mkv: 'matroska',
  webm: 'matroska',
  avi: 'avi',
  mts: 'mpegts',
  mxf: 'mxf',
  flv: 'flv',
  mpg: 'mpeg',
  asf: 'asf',
};

/** ASF answers an audio type for audio-only files: those are not clips. */
const AUDIO_ONLY = /^audio\//i;

/** Types that run script or render as a document even when a signature matched something else. */
const ACTIVE_IMAGE = /svg|xml|html/i;

export const FILE_MESSAGES = {
  empty: 'The uploaded file is empty. Upload it again.',
  notVideo: 'This file is not a video we can process. Upload an MP4, MOV, M4V, 3GP, MKV, WebM, AVI, MTS/M2TS, MXF, FLV, MPEG or WMV file.',
  notImage: 'This file is not an image we accept. Upload a JPEG, PNG, GIF, WebP, HEIC, AVIF, TIFF or BMP image (SVG files and web pages are not accepted).',
} as const;

/** The demuxer that reads a sniffed clip, or null when it is not a container we process. */
export function demuxerFor(sniffed: Sniffed | null): VideoDemuxer | null {
  if (!sniffed || AUDIO_ONLY.test(sniffed.mime)) return null;
  return DEMUXER_OF_CONTAINER[sniffed.ext.toLowerCase()] ?? null;
}

/** A raster image proved by its signature (image/*, never SVG or another markup type). */
export function isAcceptedImage(sniffed: Sniffed | null): boolean {
  if (!sniffed) return false;
  const mime = sniffed.mime.toLowerCase();
  return mime.startsWith('image/') && !ACTIVE_IMAGE.test(mime);
}

export type ContentDecision = { accepted: true; mime: string } | { accepted: false; message: string };

/** C§5 from the bytes: clips take a video container we process, assets an image. */
export function contentDecision(kind: AcceptKind, sniffed: Sniffed | null, size: number): ContentDecision {
  if (size <= 0) return { accepted: false, message: FILE_MESSAGES.empty };
  if (kind === 'video') return demuxerFor(sniffed) && sniffed ? { accepted: true, mime: sniffed.mime } : { accepted: false, message: FILE_MESSAGES.notVideo };
  return isAcceptedImage(sniffed) && sniffed ? { accepted: true, mime: sniffed.mime } : { accepted: false, message: FILE_MESSAGES.notImage };
}

/** The same rule by asset type; the final video (deliverable) is a clip. */
export function assetContentDecision(type: AssetType | 'DELIVERABLE', sniffed: Sniffed | null, size: number): ContentDecision {
  return contentDecision(type === 'DELIVERABLE' ? 'video' : ACCEPT_OF_TYPE[type], sniffed, size);
}
