import type { FastifyBaseLogger } from 'fastify';
import type { DeliverableBody, Link, LinkBody, MediaJob } from '../../src/domain/contract/media.ts';
import { customerSeesVersion } from '../../src/domain/customer-view.ts';
import { baseName, derivedKey, proxyName, type MediaFile } from '../../src/domain/media.ts';
import { isCustomerRole } from '../../src/domain/roles.ts';
import { sessionStillStands } from '../../src/domain/session-standing.ts';
import { UPLOAD_MESSAGES, uploadPrefix } from '../../src/domain/uploads.ts';
import type { AppContext } from '../context.ts';
import type { AssetRow, ProjectVersionRow } from '../db/schema.ts';
import { publishChange } from '../events/bus.ts';
import { HttpError, badRequest, conflict, notFound } from '../http-error.ts';
import { verifyMediaToken, type MediaToken } from '../media/media-links.ts';
import { FINAL_KINDS, enqueueFinalVideoMedia, finalVideoState, type PieceState } from '../media/pipeline.ts';
import { jobQueue } from '../repositories/media-jobs.ts';
import { ffmpegState } from '../media/worker.ts';
import type { AuthContext } from '../plugins/auth.ts';
import { assetsRepo } from '../repositories/assets.ts';
import { projectsRepo, type ProjectDetails } from '../repositories/projects.ts';
import { reviewRepo } from '../repositories/review.ts';
import { usersRepo } from '../repositories/users.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import { requireAcceptedContent } from './file-content.ts';
import { visibleProject } from './project-access.ts';
import { memberCaller, playableVersion } from './review.ts';
import { guestMediaTarget } from './share-links.ts';

/** Download links live a quarter of an hour: enough to start the transfer, too short to share. */
const DOWNLOAD_SECONDS = 15 * 60;
/** Playback URLs (MP4, HLS segments) must outlast a long viewing with pauses. */
const STREAM_SECONDS = 6 * 3600;
/** Staff see this many of a project's newest media jobs. */
const MEDIA_JOBS_SHOWN = 200;

export const MEDIA_MESSAGES = {
  processing: 'The video is being processed. It will be ready in a few minutes.',
  failed: 'The video could not be processed.',
  missing: 'The video file is missing from storage.',
  expired: 'This media link has expired. Reload the page.',
  notReady: 'This file is not ready yet.',
  keyOutside: "The final video must be stored under this project's final-video folder.",
  nameMissing: 'Name the file or the asset to download.',
} as const;

/** Something a signer of browser URLs (the store as the browser reaches it) can do. */
type Presigner = Pick<ObjectStore, 'presignGet'>;

function finalKey(path: string, name: string): string {
  const clean = path.replace(/^\/+/, '');
  if (clean.endsWith(`/${name}`) || clean === name) return clean;
  return `${clean.replace(/\/+$/, '')}/${name}`;
}

function assertUnder(key: string, prefix: string): void {
  if (!key.startsWith(prefix) || key.length === prefix.length || key.split('/').some((s) => s === '..' || s === '.' || s === '')) {
    throw badRequest(MEDIA_MESSAGES.keyOutside, { fields: { path: MEDIA_MESSAGES.keyOutside } });
  }
}

/**
 * A§7: registers the final video staff uploaded (upload type deliverable) and queues its media
 * work; the caller checked that `auth` may. Answers the project as it is now.
 */
export async function registerDeliverable(ctx: AppContext, project: ProjectDetails, body: DeliverableBody, log: FastifyBaseLogger): Promise<ProjectDetails> {
  const key = finalKey(body.path, body.name);
  assertUnder(key, uploadPrefix(project.id, 'deliverable'));
  const head = await ctx.storage.headObject(key);
  if (!head) throw badRequest(UPLOAD_MESSAGES.objectMissing, { fields: { path: UPLOAD_MESSAGES.objectMissing } });
  // Issue 9: the final video is a real video container too (C§5's rule for clips), whatever its name.
  await requireAcceptedContent(ctx.storage, key, head.size, 'DELIVERABLE');
  const same = project.finalVideoPath === key;
  const repo = projectsRepo(ctx.db);
  await ctx.db.transaction().execute(async (tx) => {
    await projectsRepo(tx).update(project.id, {
      finalVideoPath: key,
      finalVideoSize: head.size,
      // Where the preview will be: the project has a final video from now on (send to review
      // is allowed); the media link says "being processed" until the preview exists.
      finalVideoPreview: derivedKey(key, 'proxy'),
      // A new cut is the customer's only through review: replacing the one under review (IN_REVIEW)
      // shows the new one in that review; after it (APPROVED, ARCHIVED) it waits for
      // "restore to review" (A§), so a finished project never shows an unreviewed cut.
      ...(!same && { finalVideoThumbnail: null, hdUrl: null, lowResUrl: null, versionReleased: project.status === 'IN_REVIEW' }),
    });
    // Its review version (frame-accurate review): the same rule, replacing the cut in review keeps its number.
    await reviewRepo(tx).recordDelivery(
      { projectId: project.id, videoPath: key, videoSize: head.size, previewPath: derivedKey(key, 'proxy') },
      project.status === 'IN_REVIEW',
    );
  });
  await enqueueFinalVideoMedia(ctx, project.id, key);
  log.info({ projectId: project.id, key, size: head.size }, 'final video registered; media jobs queued');
  // Open pages of the project show the new cut (server/events/).
  await publishChange(ctx.db, { type: 'project', projectId: project.id });
  return (await repo.details(project.id))!;
}

/** The object a links request names, and the name to save it under. */
async function resolveLinkTarget(
  ctx: AppContext,
  project: ProjectDetails,
  body: LinkBody,
  seesFinal: boolean,
): Promise<{ key: string; name: string; size: number | null }> {
  const assets = assetsRepo(ctx.db);
  const wantsProxy = body.variant === 'proxy' || (body.variant === undefined && (body.name?.endsWith('_proxy.mp4') ?? false));
  const pick = (asset: Pick<AssetRow, 'path' | 'previewPath' | 'name' | 'size'>, proxy: boolean) => {
    if (!proxy) return { key: asset.path, name: asset.name, size: asset.size };
    if (!asset.previewPath) throw conflict(MEDIA_MESSAGES.notReady);
    return { key: asset.previewPath, name: asset.previewPath === asset.path ? asset.name : proxyName(asset.name), size: null };
  };
  if (body.assetId !== undefined) {
    const asset = await assets.find(project.id, body.assetId);
    if (!asset) throw notFound();
    return pick(asset, wantsProxy);
  }
  if (!body.name) throw badRequest(MEDIA_MESSAGES.nameMissing, { fields: { name: MEDIA_MESSAGES.nameMissing } });
  const name = body.name;
  // The final video: its own name, or its `_proxy.mp4` (upload type deliverable); for those who may see it.
  if (seesFinal && project.finalVideoPath && (body.uploadType === 'deliverable' || body.type === undefined)) {
    const finalName = baseName(project.finalVideoPath);
    if (name === finalName) return { key: project.finalVideoPath, name: finalName, size: project.finalVideoSize };
    if (name === proxyName(finalName)) {
      const state = await finalVideoState(ctx, project.id, project.finalVideoPath);
      if (state['final.preview'].state !== 'ready') throw conflict(MEDIA_MESSAGES.notReady);
      return { key: derivedKey(project.finalVideoPath, 'proxy'), name, size: null };
    }
  }
  const candidates = await assets.list(project.id, body.type ?? undefined);
  const original = candidates.find((asset) => asset.name === name || baseName(asset.path) === name);
  if (original) return pick(original, false);
  const proxied = candidates.find((asset) => proxyName(asset.name) === name || proxyName(baseName(asset.path)) === name);
  if (proxied) return pick(proxied, true);
  throw notFound();
}

/** A§7: a short-lived GET link to an original or its proxy, signed by `presigner` for the browser. */
export async function downloadLink(ctx: AppContext, presigner: Presigner, auth: AuthContext, project: ProjectDetails, body: LinkBody): Promise<Link> {
  // The final video is the editors' work in progress until staff send it to review.
  const seesFinal = !isCustomerRole(auth.user.role) || customerSeesVersion(project.status, project.versionReleased);
  const target = await resolveLinkTarget(ctx, project, body, seesFinal);
  const link = await presigner.presignGet(target.key, DOWNLOAD_SECONDS, target.name);
  return { link, name: target.name, size: target.size, expiresAt: new Date(Date.now() + DOWNLOAD_SECONDS * 1000).toISOString() };
}

/** Staff see the media work of a project, failed jobs with their error, and whether ffmpeg is there. */
export async function projectMediaJobs(ctx: AppContext, projectId: number): Promise<{ jobs: MediaJob[]; ffmpeg: 'missing' | 'available' }> {
  const rows = await jobQueue(ctx.db).listForProject(projectId, MEDIA_JOBS_SHOWN);
  const jobs: MediaJob[] = rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    assetId: row.assetId,
    status: row.status,
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    lastError: row.lastError,
    runAt: row.runAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt ? row.finishedAt.toISOString() : null,
  }));
  return { jobs, ffmpeg: ffmpegState() === 'missing' ? 'missing' : 'available' };
}

/** What a media link plays: the project's current final video (`version` null) or one review version's. */
export interface MediaLinkTarget {
  project: ProjectDetails;
  version: ProjectVersionRow | null;
}

/**
 * The project (and version) of a media link, for its session as it is now: the link ends with
 * the session it was minted for (the user's password reset, disable or delete; the impersonating
 * admin's revocation), like the session's token (issue 9). 404, as for any link that is not valid.
 */
export async function mediaLinkTarget(ctx: AppContext, token: string): Promise<MediaLinkTarget> {
  // A guest's link (share links, issue 13): its share link decides.
  if (token.startsWith('g')) return guestMediaTarget(ctx, token);
  const { claims, auth } = await linkCaller(ctx, verifyMediaToken(ctx.config.jwtSecret, token));
  const project = await visibleProject(ctx, auth, claims.projectId);
  // A version's link: the review rules decide, at every request (customers: released versions only).
  if (claims.version !== null) return { project, version: await playableVersion(ctx, memberCaller(auth), project, claims.version) };
  // Every file here belongs to the final video: a customer's link works only from review on.
  if (isCustomerRole(auth.user.role) && !customerSeesVersion(project.status, project.versionReleased)) throw notFound();
  return { project, version: null };
}

/**
 * Who a signed link (media or raw zip) acts for, as their session is now: 410 once it expired,
 * 404 when it is not a link of ours or its session ended (the user's password reset, disable or
 * delete; the impersonating admin's revocation).
 */
export async function linkCaller(ctx: AppContext, claims: MediaToken | 'expired' | null): Promise<{ claims: MediaToken; auth: AuthContext }> {
  if (claims === 'expired') throw new HttpError(410, MEDIA_MESSAGES.expired);
  if (!claims) throw notFound();
  const users = usersRepo(ctx.db);
  const user = await users.findById(claims.userId);
  const admin = claims.impersonatorId === null ? null : ((await users.findById(claims.impersonatorId)) ?? null);
  if (!user || !sessionStillStands(claims, user, admin)) throw notFound();
  return { claims, auth: { user, impersonatorId: claims.impersonatorId } };
}

/** What a media link answers: not (yet) there, an HLS playlist, or a presigned URL to redirect to. */
export type MediaAnswer = { kind: 'unavailable'; state: PieceState | 'missing' } | { kind: 'playlist'; body: string } | { kind: 'redirect'; url: string };

const SEGMENT_LINE = /^[^#\s][^\s]*$/;

/** Rewrites the URI lines of a playlist; tag lines pass through. */
async function rewritePlaylist(text: string, map: (uri: string) => Promise<string> | string): Promise<string> {
  const lines = text.split(/\r?\n/);
  const out: string[] = [];
  for (const line of lines) out.push(SEGMENT_LINE.test(line.trim()) ? await map(line.trim()) : line);
  return out.join('\n');
}

async function readText(storage: ObjectStore, key: string): Promise<string | null> {
  const object = await storage.getObjectStream(key);
  if (!object) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const PIECES: Record<MediaFile, (typeof FINAL_KINDS)[number]> = {
  preview: 'final.preview',
  stream: 'final.hls',
  thumbnail: 'final.thumbnail',
  hd: 'final.hd',
  lowRes: 'final.lowres',
};

/** The derived object of each file for a version's own video (the pipeline names them after their source). */
const DERIVED_OF: Record<Exclude<MediaFile, 'stream'>, Parameters<typeof derivedKey>[1]> = {
  preview: 'proxy',
  thumbnail: 'thumbnail',
  hd: 'hd',
  lowRes: 'lowRes',
};

/**
 * One file of a media link's video (the project's final video, or one version's): the HLS master
 * playlist (its variant playlists under `stream/`), or a presigned URL of the object (a download
 * name for the HD and low-res renditions).
 */
export async function finalVideoFile(ctx: AppContext, presigner: Presigner, { project, version }: MediaLinkTarget, file: MediaFile): Promise<MediaAnswer> {
  const source = version ? version.videoPath : project.finalVideoPath;
  if (!source) return { kind: 'unavailable', state: 'missing' };
  const states = await finalVideoState(ctx, project.id, source);
  const state = states[PIECES[file]].state;
  if (state !== 'ready') return { kind: 'unavailable', state };
  if (file === 'stream') {
    const text = await readText(ctx.storage, `${derivedKey(source, 'hls')}index.m3u8`);
    if (text === null) return { kind: 'unavailable', state: 'missing' };
    return { kind: 'playlist', body: await rewritePlaylist(text, (uri) => (/^v\d+\/playlist\.m3u8$/.test(uri) ? `stream/${uri}` : uri)) };
  }
  const key = version
    ? derivedKey(source, DERIVED_OF[file])
    : { preview: derivedKey(source, 'proxy'), thumbnail: project.finalVideoThumbnail, hd: project.hdUrl, lowRes: project.lowResUrl }[file];
  if (!key || !(await ctx.storage.headObject(key))) return { kind: 'unavailable', state: 'missing' };
  const name =
    project.name
      .replace(/[^A-Za-z0-9._ -]/g, '')
      .trim()
      .replace(/\s+/g, '_') || `project-${project.id}`;
  const stem = version ? `${name}_v${String(version.number).padStart(2, '0')}` : name;
  const download = file === 'hd' ? `${stem}_HD.mp4` : file === 'lowRes' ? `${stem}_low-res.mp4` : undefined;
  return { kind: 'redirect', url: await presigner.presignGet(key, download ? DOWNLOAD_SECONDS : STREAM_SECONDS, download) };
}

/** A variant playlist (`v0`, `v1`, …) of the HLS rendition, its segments presigned for the browser. */
export async function variantPlaylist(ctx: AppContext, presigner: Presigner, { project, version }: MediaLinkTarget, variant: string): Promise<MediaAnswer> {
  const source = version ? version.videoPath : project.finalVideoPath;
  if (!source) return { kind: 'unavailable', state: 'missing' };
  const states = await finalVideoState(ctx, project.id, source);
  if (states['final.hls'].state !== 'ready') return { kind: 'unavailable', state: states['final.hls'].state };
  const folder = `${derivedKey(source, 'hls')}${variant}/`;
  const text = await readText(ctx.storage, `${folder}playlist.m3u8`);
  if (text === null) return { kind: 'unavailable', state: 'missing' };
  return {
    kind: 'playlist',
    body: await rewritePlaylist(text, (uri) => (/^[A-Za-z0-9_.-]+\.ts$/.test(uri) ? presigner.presignGet(`${folder}${uri}`, STREAM_SECONDS) : uri)),
  };
}
