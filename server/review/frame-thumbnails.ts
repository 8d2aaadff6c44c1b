import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demuxerFor } from '../../src/domain/file-signature.ts';
import type { FrameRate } from '../../src/domain/timecode.ts';
import { makeFrameJpeg, type MediaInput, type MediaTools } from '../media/ffmpeg.ts';
import { sniffObject } from '../services/file-content.ts';
import type { ObjectStore } from '../storage/object-store.ts';

/**
 * Pictures of the commented frames for the comments PDF: one small JPEG per frame, cut from the
 * version's video by ffmpeg while the request waits. The work is bounded (a number of frames, a
 * few processes at a time for the whole server, a time-out per frame and per document), and a
 * frame that could not be had is simply missing from the result: the PDF draws a grey box
 * instead, it never fails for a picture.
 */

export const FRAME_THUMBNAIL_LIMITS = {
  /** Pictures in one document; threads past this get the grey box. */
  frames: 200,
  /** Pixel width of a picture (height follows the video's shape). */
  width: 320,
  /** ffmpeg processes at once, for all requests of this server together: a PDF must not starve the media jobs. */
  processes: 3,
  /** One frame; a stuck read over HTTP is killed. */
  frameTimeoutMs: 15_000,
  /** All frames of one document; what is not done by then is left out. */
  documentTimeoutMs: 90_000,
} as const;

/** The presigned source URL only has to outlive one document's extraction. */
const SOURCE_URL_SECONDS = 15 * 60;

/** Waiters for a free ffmpeg slot, shared by every request of this process. */
let running = 0;
const waiting: (() => void)[] = [];

async function withProcessSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= FRAME_THUMBNAIL_LIMITS.processes) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    return await work();
  } finally {
    // The slot passes straight to the next waiter (running stays counted), or is freed.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

/**
 * Where frame `frame` starts, in seconds as ffmpeg reads them ("1.501500"): frame × den / num,
 * rounded down to the microsecond. Down, never to nearest: an accurate seek keeps the first frame
 * at or after the time, so a time a hair past the frame's own would skip to the next frame.
 */
export function frameStartSeconds(frame: number, rate: FrameRate): string {
  const micros = Math.floor((frame * rate.den * 1_000_000) / rate.num);
  return `${Math.floor(micros / 1_000_000)}.${String(micros % 1_000_000).padStart(6, '0')}`;
}

/**
 * The stored video as ffmpeg's input: a presigned GET and the demuxer its first bytes name (the
 * media jobs' rule, issue 9). Null when the object is gone or is not a video we read.
 */
export async function storedVideoInput(storage: ObjectStore, key: string): Promise<MediaInput | null> {
  const head = await storage.headObject(key);
  if (!head) return null;
  const demuxer = demuxerFor(await sniffObject(storage, key, head.size));
  if (!demuxer) return null;
  return { url: await storage.presignGet(key, SOURCE_URL_SECONDS), demuxer };
}

/** True for the bytes of a JPEG (SOI marker): anything else is not put into a PDF. */
const isJpeg = (bytes: Uint8Array) => bytes.length > 4 && bytes[0] === 0xff && bytes[1] === 0xd8;

async function extractOne(tools: MediaTools, input: MediaInput, frame: number, rate: FrameRate, file: string, signal: AbortSignal): Promise<Uint8Array | null> {
  try {
    await makeFrameJpeg(tools, input, file, frameStartSeconds(frame, rate), FRAME_THUMBNAIL_LIMITS.width, {
      signal,
      timeoutMs: FRAME_THUMBNAIL_LIMITS.frameTimeoutMs,
    });
    const bytes = new Uint8Array(await readFile(file));
    return isJpeg(bytes) ? bytes : null;
  } catch {
    // No ffmpeg, a frame past the end, a time-out, a broken file: this frame gets no picture.
    return null;
  }
}

/**
 * JPEG pictures of `frames` (frame → bytes), the first FRAME_THUMBNAIL_LIMITS.frames distinct
 * frames in frame order. Frames that failed, timed out or were past the limits are absent.
 */
export async function frameThumbnails(
  tools: MediaTools,
  input: MediaInput,
  frames: readonly number[],
  rate: FrameRate,
  signal?: AbortSignal,
): Promise<Map<number, Uint8Array>> {
  const wanted = [...new Set(frames)].sort((a, b) => a - b).slice(0, FRAME_THUMBNAIL_LIMITS.frames);
  const pictures = new Map<number, Uint8Array>();
  if (wanted.length === 0) return pictures;
  const deadline = AbortSignal.any([AbortSignal.timeout(FRAME_THUMBNAIL_LIMITS.documentTimeoutMs), ...(signal ? [signal] : [])]);
  const dir = await mkdtemp(join(tmpdir(), 'cutdesk-frames-'));
  try {
    await Promise.all(
      wanted.map((frame) =>
        withProcessSlot(async () => {
          if (deadline.aborted) return;
          const picture = await extractOne(tools, input, frame, rate, join(dir, `${frame}.jpg`), deadline);
          if (picture) pictures.set(frame, picture);
        }),
      ),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return pictures;
}
