import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { addAbortSignal, type Readable } from 'node:stream';
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { join, relative } from 'node:path';
import { derivedKey } from '../../src/domain/media.ts';
import { fingerprintPrefix, fingerprintRanges, slicesInChunk } from '../../src/domain/fingerprint.ts';
import type { AppContext } from '../context.ts';
import type { MediaJobRow } from '../db/schema.ts';
import { demuxerFor } from '../../src/domain/file-signature.ts';
import { sniffObject } from '../services/file-content.ts';
import { publishChange } from '../events/bus.ts';
import { reviewRepo } from '../repositories/review.ts';
import { versionMeasure } from '../review/measure.ts';
import { makeHls, makeMp4, makeThumbnail, probe, redactUrls, remuxMp4, type MediaInput, type MediaTools, type ProbeResult } from './ffmpeg.ts';
import { PermanentJobError, type NewJob } from './queue.ts';
import { jobQueue } from '../repositories/media-jobs.ts';
import { assetsRepo } from '../repositories/assets.ts';
import { projectsRepo } from '../repositories/projects.ts';
import { uploadsRefuseOverwrites } from '../storage/upload-credentials.ts';
import type { JobHandler } from './runner.ts';

/**
 * What the pipeline makes (issue 6). For the final video: a thumbnail, the HLS rendition the
 * player streams, the low-res preview MP4 (the `_proxy.mp4`), and the HD and low-res download
 * renditions. For every clip: a reduced proxy and a thumbnail. Each is one job, so each piece
 * appears as soon as it is ready and fails or retries on its own.
 */
export const FINAL_KINDS = ['final.thumbnail', 'final.hls', 'final.preview', 'final.lowres', 'final.hd'] as const;
const CLIP_KINDS = ['asset.thumbnail', 'asset.proxy'] as const;
/** Every asset, a clip or not: its CRC-32, for zips made on the user's device (issue 14). */
export const CHECKSUM_KIND = 'asset.checksum';
export const ASSET_KINDS = [...CLIP_KINDS, CHECKSUM_KIND] as const;
export type MediaKind = (typeof FINAL_KINDS)[number] | (typeof ASSET_KINDS)[number];
export const ALL_KINDS: readonly MediaKind[] = [...FINAL_KINDS, ...ASSET_KINDS];

/** What this instance's media worker may run: everything with ffmpeg, the checksums without it (they need no ffmpeg). */
export function runnableKinds(ffmpegFound: boolean): readonly MediaKind[] {
  return ffmpegFound ? ALL_KINDS : [CHECKSUM_KIND];
}

/** Fast, visible pieces first: the poster, then what the player needs, then the downloads. */
const PRIORITY: Record<MediaKind, number> = {
  'final.thumbnail': 10,
  'final.hls': 20,
  'final.preview': 30,
  'final.lowres': 40,
  'final.hd': 50,
  'asset.thumbnail': 60,
  // After the thumbnail a person sees, before the long proxy: one read of the object, and a raw
  // zip is faster with it (it works without).
  'asset.checksum': 65,
  'asset.proxy': 70,
};

/** What each kind writes to the store; a checksum only writes its asset's row. */
const OUTPUT: Record<MediaKind, Parameters<typeof derivedKey>[1] | null> = {
  'final.thumbnail': 'thumbnail',
  'final.hls': 'hls',
  'final.preview': 'proxy',
  'final.lowres': 'lowRes',
  'final.hd': 'hd',
  'asset.thumbnail': 'thumbnail',
  'asset.proxy': 'proxy',
  'asset.checksum': null,
};

/** Renditions: the preview and clip proxies are light (540p); the low-res download 720p; HD up to 1080p. */
const PREVIEW = { maxHeight: 540, crf: 27, audioKbps: 96 };
const LOW_RES = { maxHeight: 720, crf: 24, audioKbps: 128 };
const HD = { maxHeight: 1080, crf: 20, audioKbps: 192 };

/** Presigned source URLs for ffmpeg outlive the longest transcode we expect. */
const SOURCE_URL_SECONDS = 12 * 3600;

const wakers = new WeakMap<AppContext, () => void>();

/** The media runner of this instance registers here, so new work starts without waiting for a poll. */
export function registerMediaWaker(ctx: AppContext, wake: () => void): void {
  wakers.set(ctx, wake);
}

function jobFor(kind: MediaKind, source: string, ids: { projectId: number; assetId?: number }): NewJob {
  const output = OUTPUT[kind];
  return {
    kind,
    projectId: ids.projectId,
    assetId: ids.assetId ?? null,
    sourceKey: source,
    outputKey: output ? derivedKey(source, output) : null,
    priority: PRIORITY[kind],
  };
}

/** Queues the final video's work; earlier versions' queued work is cancelled. */
export async function enqueueFinalVideoMedia(ctx: AppContext, projectId: number, sourceKey: string): Promise<void> {
  const queue = jobQueue(ctx.db);
  await queue.cancelSuperseded(projectId, FINAL_KINDS, sourceKey);
  // Registering the same object again (a retried request) repeats only what failed.
  const have = await queue.activeKinds({ projectId, assetId: null }, sourceKey);
  const jobs = FINAL_KINDS.filter((kind) => !have.has(kind)).map((kind) => jobFor(kind, sourceKey, { projectId }));
  await queue.enqueue(jobs);
  if (jobs.length) wakers.get(ctx)?.();
}

/**
 * What an earlier version needs to be played and compared (issue 13): its poster, its stream and
 * its preview; the downloads are the current cut's. A version gets these as the current cut; this
 * is for a version recorded without that (the demo's earlier cuts).
 */
const EARLIER_VERSION_KINDS = ['final.thumbnail', 'final.hls', 'final.preview'] as const satisfies readonly MediaKind[];
/** Earlier versions' work waits for the current cut's. */
const EARLIER_VERSION_PRIORITY = 100;

/**
 * Queues the playable pieces of an earlier version's video (its `videoPath`), after the current
 * cut's work; call it after enqueueFinalVideoMedia (which cancels other videos' queued work). Work
 * already queued or done for the same object is not repeated.
 */
export async function enqueueEarlierVersionMedia(ctx: AppContext, projectId: number, sourceKey: string): Promise<void> {
  const have = await jobQueue(ctx.db).activeKinds({ projectId, assetId: null }, sourceKey);
  const jobs = EARLIER_VERSION_KINDS.filter((kind) => !have.has(kind)).map((kind) => ({
    ...jobFor(kind, sourceKey, { projectId }),
    priority: EARLIER_VERSION_PRIORITY + PRIORITY[kind],
  }));
  await jobQueue(ctx.db).enqueue(jobs);
  if (jobs.length) wakers.get(ctx)?.();
}

/**
 * Queues the work on a registered asset (call it after POST projects/{id}/assets): its checksum,
 * and for a clip its proxy and thumbnail. An image is its own reduced version: its previewPath
 * is set at once. Safe to call again: work already queued or done for the same object is not
 * repeated.
 */
export async function enqueueAssetMedia(ctx: AppContext, assetId: number): Promise<void> {
  const asset = await assetsRepo(ctx.db).findLiveById(assetId);
  if (!asset) return;
  const image = asset.type === 'ASSET';
  if (image && !asset.previewPath) await assetsRepo(ctx.db).previewIsItself(asset.id, asset.path);
  const have = await jobQueue(ctx.db).activeKinds({ assetId: asset.id }, asset.path);
  const wanted: MediaKind[] = image ? [CHECKSUM_KIND] : [...ASSET_KINDS];
  const jobs = wanted.filter((kind) => !have.has(kind)).map((kind) => jobFor(kind, asset.path, { projectId: asset.projectId, assetId: asset.id }));
  await jobQueue(ctx.db).enqueue(jobs);
  if (jobs.length) wakers.get(ctx)?.();
}

/**
 * Issue 36: a final video's preview that ended (ready, or failed for good) changes what its
 * project page offers (Send to review): open pages read the project again at once, rather than
 * at their next look every 5 s. Called once the job's end is recorded (the runner's onFinished).
 */
export function announceEndedPiece(ctx: AppContext, job: Pick<MediaJobRow, 'kind' | 'projectId' | 'assetId'>): Promise<void> {
  if (job.kind !== 'final.preview' || job.projectId === null || job.assetId !== null) return Promise.resolve();
  return publishChange(ctx.db, { type: 'project', projectId: job.projectId });
}

export type PieceState = 'none' | 'processing' | 'ready' | 'failed';

/** State of each piece of the project's current final video, from its jobs. */
export async function finalVideoState(
  ctx: AppContext,
  projectId: number,
  sourceKey: string | null,
): Promise<Record<(typeof FINAL_KINDS)[number], { state: PieceState; error: string | null }>> {
  const rows = sourceKey ? await jobQueue(ctx.db).finalVideoJobs(projectId, sourceKey) : [];
  const result = {} as Record<(typeof FINAL_KINDS)[number], { state: PieceState; error: string | null }>;
  for (const kind of FINAL_KINDS) {
    const row = rows.find((r) => r.kind === kind);
    const state: PieceState = !row ? 'none' : row.status === 'done' ? 'ready' : row.status === 'failed' ? 'failed' : 'processing';
    result[kind] = { state, error: row?.lastError ?? null };
  }
  return result;
}

/**
 * CRC-32 (zlib's, in native code), length and fingerprint (issue 35, src/domain/fingerprint.ts)
 * of a stream's bytes of the expected `size`, in one pass; `signal` ends a stalled read too.
 */
async function checksumOf(body: Readable, expectedSize: number, signal: AbortSignal): Promise<{ crc: number; size: number; fingerprint: string }> {
  let crc = 0;
  let size = 0;
  const ranges = fingerprintRanges(expectedSize);
  const sampled = createHash('sha256').update(fingerprintPrefix(expectedSize));
  try {
    for await (const chunk of addAbortSignal(signal, body)) {
      const bytes = chunk as Buffer;
      crc = crc32(bytes, crc);
      for (const [from, to] of slicesInChunk(ranges, size, bytes.length)) sampled.update(bytes.subarray(from, to));
      size += bytes.length;
    }
  } finally {
    body.destroy();
  }
  return { crc, size, fingerprint: sampled.digest('hex') };
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else out.push(path);
  }
  return out;
}

const CONTENT_TYPES: Record<string, string> = { '.jpg': 'image/jpeg', '.mp4': 'video/mp4', '.m3u8': 'application/vnd.apple.mpegurl', '.ts': 'video/mp2t' };
const contentType = (path: string) => CONTENT_TYPES[path.slice(path.lastIndexOf('.'))] ?? 'application/octet-stream';

async function upload(ctx: AppContext, file: string, key: string): Promise<void> {
  const info = await stat(file);
  if (info.size === 0) throw new Error(`ffmpeg wrote an empty ${key}.`);
  await ctx.storage.putObject(key, createReadStream(file), contentType(file));
}

/** The job handlers, bound to `ctx` and `tools`. */
export function mediaHandlers(ctx: AppContext, tools: MediaTools): Record<MediaKind, JobHandler> {
  /** Whether the job is still wanted: the final video or asset may have been replaced or deleted meanwhile. */
  async function stillWanted(job: MediaJobRow): Promise<boolean> {
    if (job.assetId !== null) {
      const asset = await assetsRepo(ctx.db).findLiveById(job.assetId);
      if (asset?.path === job.sourceKey) return true;
      // Its record gone, the object may still be another's (a duplicate, a stored copy reused,
      // issue 35), whose proxy, thumbnail and checksum this job makes (they go to every record of it).
      return job.sourceKey !== null && (await assetsRepo(ctx.db).livePaths([job.sourceKey])).length > 0;
    }
    const project = await projectsRepo(ctx.db).finalVideoPath(job.projectId!);
    if (!project) return false;
    if (project.finalVideoPath === job.sourceKey) return true;
    // An earlier version's video (enqueueEarlierVersionMedia): wanted while a version holds it.
    return reviewRepo(ctx.db).holdsVersionVideo(job.projectId!, job.sourceKey!);
  }

  /** Runs `work` with a presigned source URL and a temp folder, after checking the job still matters. */
  const handler =
    (work: (job: MediaJobRow, input: MediaInput, info: ProbeResult, dir: string, signal: AbortSignal) => Promise<void>): JobHandler =>
    async ({ job, signal }) => {
      if (!job.sourceKey || !job.outputKey) throw new PermanentJobError('The job names no source or output object.');
      if (!(await stillWanted(job))) return;
      const head = await ctx.storage.headObject(job.sourceKey);
      if (!head) throw new PermanentJobError(`The source object ${job.sourceKey} does not exist.`);
      // Registration checked the bytes already; this holds for objects registered before that
      // check, and decides the one demuxer ffmpeg may use (issue 9).
      const demuxer = demuxerFor(await sniffObject(ctx.storage, job.sourceKey, head.size));
      if (!demuxer) throw new PermanentJobError('The file is not a video container we process: its first bytes match no video format we read.');
      const input: MediaInput = { url: await ctx.storage.presignGet(job.sourceKey, SOURCE_URL_SECONDS), demuxer };
      const dir = await mkdtemp(join(tmpdir(), 'cutdesk-media-'));
      try {
        let info: ProbeResult;
        try {
          info = await probe(tools, input, signal);
        } catch (error) {
          if (signal.aborted) throw error;
          throw new PermanentJobError(`The file is not a video ffprobe can read: ${redactUrls(error instanceof Error ? error.message : String(error))}`);
        }
        if (!info.videoCodec) throw new PermanentJobError('The file has no video stream.');
        // The final video's review version learns its frame rate and length from the first job that probes it.
        if (job.assetId === null && job.projectId !== null) await reviewRepo(ctx.db).recordMeasure(job.projectId, job.sourceKey, versionMeasure(info));
        await work(job, input, info, dir, signal);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    };

  const setProject = async (job: MediaJobRow, changes: { finalVideoThumbnail?: string; hdUrl?: string; lowResUrl?: string }) => {
    await projectsRepo(ctx.db).setFinalVideoPieces(job.projectId!, job.sourceKey!, changes);
  };

  const mp4 = (rendition: typeof PREVIEW, after?: (job: MediaJobRow) => Promise<void>) =>
    handler(async (job, input, _info, dir, signal) => {
      const out = join(dir, 'out.mp4');
      await makeMp4(tools, input, out, rendition, signal);
      await upload(ctx, out, job.outputKey!);
      await after?.(job);
    });

  const thumbnail = (after?: (job: MediaJobRow) => Promise<void>) =>
    handler(async (job, input, info, dir, signal) => {
      const out = join(dir, 'thumb.jpg');
      await makeThumbnail(tools, input, out, info.durationSeconds, signal);
      await upload(ctx, out, job.outputKey!);
      await after?.(job);
    });

  return {
    'final.thumbnail': thumbnail((job) => setProject(job, { finalVideoThumbnail: job.outputKey! })),
    'final.preview': mp4(PREVIEW),
    'final.lowres': mp4(LOW_RES, (job) => setProject(job, { lowResUrl: job.outputKey! })),
    'final.hd': handler(async (job, input, info, dir, signal) => {
      const out = join(dir, 'hd.mp4');
      // An H.264 source within HD is kept as it is (no generation loss), only re-wrapped.
      const keep = info.videoCodec === 'h264' && info.height <= HD.maxHeight && (info.audioCodec === null || info.audioCodec === 'aac');
      if (keep) await remuxMp4(tools, input, out, signal);
      else await makeMp4(tools, input, out, HD, signal);
      await upload(ctx, out, job.outputKey!);
      await setProject(job, { hdUrl: job.outputKey! });
    }),
    'final.hls': handler(async (job, input, info, dir, signal) => {
      const out = join(dir, 'hls');
      await mkdir(out);
      await makeHls(tools, input, out, info.audioCodec !== null, signal);
      // Segments and variant playlists first, the master last: once it exists, everything it names does.
      const files = (await filesUnder(out)).sort((a, b) => Number(a.endsWith('index.m3u8')) - Number(b.endsWith('index.m3u8')));
      for (const file of files) await upload(ctx, file, `${job.outputKey!}${relative(out, file).split('\\').join('/')}`);
    }),
    'asset.checksum': async ({ job, signal }) => {
      if (!job.sourceKey || job.assetId === null) throw new PermanentJobError('The job names no asset or source object.');
      // A CRC is worth telling only about bytes that cannot change: where upload credentials may
      // replace a registered object, a zip computes it from what it downloads.
      if (!uploadsRefuseOverwrites(ctx.config.storage)) return;
      if (!(await stillWanted(job))) return;
      const object = await ctx.storage.getObjectStream(job.sourceKey);
      if (!object) throw new PermanentJobError(`The source object ${job.sourceKey} does not exist.`);
      const { crc, size, fingerprint } = await checksumOf(object.body, object.contentLength, signal);
      // Every asset row of this object (a duplicated project shares it), if its length is the
      // registered size: a zip would fail on one that is not anyway, and must not be told a CRC
      // for bytes it will not find.
      await assetsRepo(ctx.db).setChecksum(job.sourceKey, size, crc, fingerprint);
    },
    'asset.thumbnail': thumbnail(),
    'asset.proxy': mp4(PREVIEW, async (job) => {
      await assetsRepo(ctx.db).setPreview(job.assetId!, job.sourceKey!, job.outputKey!);
    }),
  };
}
