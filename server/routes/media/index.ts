import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DeliverableBodyStruct, LinkBodyStruct, type Link, type LinkBody, type MediaJob } from '../../../src/domain/contract/media.ts';
import { baseName, derivedKey, proxyName, type MediaFile } from '../../../src/domain/media.ts';
import { customerSeesVersion } from '../../../src/domain/customer-view.ts';
import { isCustomerRole, isStaffRole } from '../../../src/domain/roles.ts';
import { sessionStillStands } from '../../../src/domain/session-standing.ts';
import { parseAssetType, uploadDecision, uploadPrefix } from '../../../src/domain/uploads.ts';
import { HttpError, badRequest, conflict, forbidden, notFound, parse } from '../../http-error.ts';
import { FINAL_KINDS, enqueueFinalVideoMedia, finalVideoState, type PieceState } from '../../media/pipeline.ts';
import { verifyMediaToken } from '../../media/media-links.ts';
import { ffmpegState } from '../../media/worker.ts';
import { authenticate } from '../../plugins/auth.ts';
import { projectsRepo, type ProjectDetails } from '../../repositories/projects.ts';
import { usersRepo } from '../../repositories/users.ts';
import { requireAcceptedContent } from '../../services/file-content.ts';
import { visibleProject } from '../../services/project-access.ts';
import { toProject } from '../../services/project-view.ts';
import { browserPresigner } from '../../storage/setup.ts';
import { idParam } from '../params.ts';

/** Download links live a quarter of an hour: enough to start the transfer, too short to share. */
const DOWNLOAD_SECONDS = 15 * 60;
/** Playback URLs (MP4, HLS segments) must outlast a long viewing with pauses. */
const STREAM_SECONDS = 6 * 3600;

export const MEDIA_MESSAGES = {
  processing: 'The video is being processed. It will be ready in a few minutes.',
  failed: 'The video could not be processed.',
  missing: 'The video file is missing from storage.',
  expired: 'This media link has expired. Reload the page.',
  notReady: 'This file is not ready yet.',
  keyOutside: "The final video must be stored under this project's final-video folder.",
  objectMissing: 'The uploaded file was not found in storage. Upload it again.',
} as const;

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

/** The object a links request names, and the name to save it under. */
async function resolveLinkTarget(app: FastifyInstance, project: ProjectDetails, body: LinkBody, seesFinal: boolean): Promise<{ key: string; name: string; size: number | null }> {
  const db = app.ctx.db;
  const assets = () => db.selectFrom('assets').selectAll().where('projectId', '=', project.id).where('deletedAt', 'is', null);
  const wantsProxy = body.variant === 'proxy' || (body.variant === undefined && (body.name?.endsWith('_proxy.mp4') ?? false));
  const pick = (asset: { path: string; previewPath: string | null; name: string; size: number }, proxy: boolean) => {
    if (!proxy) return { key: asset.path, name: asset.name, size: asset.size };
    if (!asset.previewPath) throw conflict(MEDIA_MESSAGES.notReady);
    return { key: asset.previewPath, name: asset.previewPath === asset.path ? asset.name : proxyName(asset.name), size: null };
  };
  if (body.assetId !== undefined) {
    const asset = await assets().where('id', '=', body.assetId).executeTakeFirst();
    if (!asset) throw notFound();
    return pick(asset, wantsProxy);
  }
  if (!body.name) throw badRequest('Name the file or the asset to download.', { fields: { name: 'Name the file or the asset to download.' } });
  const name = body.name;
  // The final video: its own name, or its `_proxy.mp4` (upload type deliverable); for those who may see it.
  if (seesFinal && project.finalVideoPath && (body.uploadType === 'deliverable' || body.type === undefined)) {
    const finalName = baseName(project.finalVideoPath);
    if (name === finalName) return { key: project.finalVideoPath, name: finalName, size: project.finalVideoSize };
    if (name === proxyName(finalName)) {
      const state = await finalVideoState(app.ctx, project.id, project.finalVideoPath);
      if (state['final.preview'].state !== 'ready') throw conflict(MEDIA_MESSAGES.notReady);
      return { key: derivedKey(project.finalVideoPath, 'proxy'), name, size: null };
    }
  }
  const type = body.type ?? null;
  let query = assets();
  if (type) query = query.where('type', '=', type);
  const candidates = await query.execute();
  const original = candidates.find((asset) => asset.name === name || baseName(asset.path) === name);
  if (original) return pick(original, false);
  const proxied = candidates.find((asset) => proxyName(asset.name) === name || proxyName(baseName(asset.path)) === name);
  if (proxied) return pick(proxied, true);
  throw notFound();
}

const SEGMENT_LINE = /^[^#\s][^\s]*$/;

/** Rewrites the URI lines of a playlist; tag lines pass through. */
async function rewritePlaylist(text: string, map: (uri: string) => Promise<string> | string): Promise<string> {
  const lines = text.split(/\r?\n/);
  const out: string[] = [];
  for (const line of lines) out.push(SEGMENT_LINE.test(line.trim()) ? await map(line.trim()) : line);
  return out.join('\n');
}

async function readText(app: FastifyInstance, key: string): Promise<string | null> {
  const object = await app.ctx.storage.getObjectStream(key);
  if (!object) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function unavailable(reply: FastifyReply, state: PieceState | 'missing') {
  if (state === 'processing' || state === 'none') {
    return reply.code(503).header('Retry-After', '5').header('Cache-Control', 'no-store').send({ message: MEDIA_MESSAGES.processing });
  }
  return reply.code(404).header('Cache-Control', 'no-store').send({ message: state === 'failed' ? MEDIA_MESSAGES.failed : MEDIA_MESSAGES.missing });
}

export default async function mediaRoutes(app: FastifyInstance) {
  const { ctx } = app;

  // A§7: staff (not editors) register the final video they uploaded (upload type deliverable).
  app.post('/projects/:id/deliverable', async (request) => {
    const auth = await authenticate(request);
    const project = await visibleProject(ctx, auth, idParam(request.params));
    if (auth.impersonatorId !== null) throw forbidden();
    const decision = uploadDecision(auth.user.role, project.status, 'deliverable');
    if (!decision.allowed) throw new HttpError(decision.status, decision.message);
    const body = parse(DeliverableBodyStruct, request.body);
    const key = finalKey(body.path, body.name);
    assertUnder(key, uploadPrefix(project.id, 'deliverable'));
    const head = await ctx.storage.headObject(key);
    if (!head) throw badRequest(MEDIA_MESSAGES.objectMissing, { fields: { path: MEDIA_MESSAGES.objectMissing } });
    // Issue 9: the final video is a real video container too (C§5's rule for clips), whatever its name.
    await requireAcceptedContent(ctx.storage, key, head.size, 'DELIVERABLE');
    const same = project.finalVideoPath === key;
    const repo = projectsRepo(ctx.db);
    await repo.update(project.id, {
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
    await enqueueFinalVideoMedia(ctx, project.id, key);
    request.log.info({ projectId: project.id, key, size: head.size }, 'final video registered; media jobs queued');
    return toProject((await repo.details(project.id))!);
  });

  // A§7: a short-lived GET link to an original or its proxy, for anyone who may see the project.
  app.post('/projects/:id/links', async (request): Promise<Link> => {
    const auth = await authenticate(request);
    const project = await visibleProject(ctx, auth, idParam(request.params));
    const raw = (request.body ?? {}) as Record<string, unknown>;
    const body = parse(LinkBodyStruct, { ...raw, ...(raw.type !== undefined && { type: parseAssetType(raw.type) ?? raw.type }) });
    // The final video is the editors' work in progress until staff send it to review.
    const seesFinal = !isCustomerRole(auth.user.role) || customerSeesVersion(project.status, project.versionReleased);
    const target = await resolveLinkTarget(app, project, body, seesFinal);
    const link = await browserPresigner(app, request).presignGet(target.key, DOWNLOAD_SECONDS, target.name);
    return { link, name: target.name, size: target.size, expiresAt: new Date(Date.now() + DOWNLOAD_SECONDS * 1000).toISOString() };
  });

  // Staff see the media work of a project, failed jobs with their error.
  app.get('/projects/:id/media-jobs', async (request) => {
    const auth = await authenticate(request);
    if (!isStaffRole(auth.user.role) || auth.impersonatorId !== null) throw forbidden();
    const project = await visibleProject(ctx, auth, idParam(request.params));
    const rows = await ctx.db.selectFrom('mediaJobs').selectAll().where('projectId', '=', project.id).orderBy('id', 'desc').limit(200).execute();
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
    return { data: { jobs, ffmpeg: ffmpegState() === 'missing' ? 'missing' : 'available' } };
  });

  /**
   * The project of a media link, for its session as it is now: the link ends with the session it
   * was minted for (the user's password reset, disable or delete; the impersonating admin's
   * revocation), like the session's token (issue 9). 404, as for any link that is not valid.
   */
  async function linkTarget(request: FastifyRequest): Promise<ProjectDetails> {
    const { token } = request.params as { token: string };
    const claims = verifyMediaToken(ctx.config.jwtSecret, token);
    if (claims === 'expired') throw new HttpError(410, MEDIA_MESSAGES.expired);
    if (!claims) throw notFound();
    const users = usersRepo(ctx.db);
    const user = await users.findById(claims.userId);
    const admin = claims.impersonatorId === null ? null : ((await users.findById(claims.impersonatorId)) ?? null);
    if (!user || !sessionStillStands(claims, user, admin)) throw notFound();
    const project = await visibleProject(ctx, { user, impersonatorId: claims.impersonatorId }, claims.projectId);
    // Every file here belongs to the final video: a customer's link works only from review on.
    if (isCustomerRole(user.role) && !customerSeesVersion(project.status, project.versionReleased)) throw notFound();
    return project;
  }

  const FILES: Record<string, MediaFile> = { 'preview.mp4': 'preview', 'stream.m3u8': 'stream', 'thumbnail.jpg': 'thumbnail', 'hd.mp4': 'hd', 'low-res.mp4': 'lowRes' };

  app.get('/media/:token/:file', async (request, reply) => {
    const file = FILES[(request.params as { file: string }).file];
    if (!file) throw notFound();
    const project = await linkTarget(request);
    const source = project.finalVideoPath;
    if (!source) return unavailable(reply, 'missing');
    const states = await finalVideoState(ctx, project.id, source);
    const piece = { preview: 'final.preview', stream: 'final.hls', thumbnail: 'final.thumbnail', hd: 'final.hd', lowRes: 'final.lowres' }[file] as (typeof FINAL_KINDS)[number];
    const state = states[piece].state;
    if (state !== 'ready') return unavailable(reply, state);
    reply.header('Cache-Control', 'private, no-store');
    if (file === 'stream') {
      const text = await readText(app, `${derivedKey(source, 'hls')}index.m3u8`);
      if (text === null) return unavailable(reply, 'missing');
      const body = await rewritePlaylist(text, (uri) => (/^v\d+\/playlist\.m3u8$/.test(uri) ? `stream/${uri}` : uri));
      return reply.type('application/vnd.apple.mpegurl').send(body);
    }
    const key = { preview: derivedKey(source, 'proxy'), thumbnail: project.finalVideoThumbnail, hd: project.hdUrl, lowRes: project.lowResUrl }[file];
    if (!key || !(await ctx.storage.headObject(key))) return unavailable(reply, 'missing');
    const stem = project.name.replace(/[^A-Za-z0-9._ -]/g, '').trim().replace(/\s+/g, '_') || `project-${project.id}`;
    const download = file === 'hd' ? `${stem}_HD.mp4` : file === 'lowRes' ? `${stem}_low-res.mp4` : undefined;
    const url = await browserPresigner(app, request).presignGet(key, download ? DOWNLOAD_SECONDS : STREAM_SECONDS, download);
    return reply.redirect(url, 302);
  });

  // A variant playlist of the HLS rendition, its segments presigned for the browser.
  app.get('/media/:token/stream/:variant/playlist.m3u8', async (request, reply) => {
    const { variant } = request.params as { variant: string };
    if (!/^v\d{1,2}$/.test(variant)) throw notFound();
    const project = await linkTarget(request);
    const source = project.finalVideoPath;
    if (!source) return unavailable(reply, 'missing');
    const states = await finalVideoState(ctx, project.id, source);
    if (states['final.hls'].state !== 'ready') return unavailable(reply, states['final.hls'].state);
    const folder = `${derivedKey(source, 'hls')}${variant}/`;
    const text = await readText(app, `${folder}playlist.m3u8`);
    if (text === null) return unavailable(reply, 'missing');
    const presigner = browserPresigner(app, request);
    const body = await rewritePlaylist(text, (uri) => (/^[A-Za-z0-9_.-]+\.ts$/.test(uri) ? presigner.presignGet(`${folder}${uri}`, STREAM_SECONDS) : uri));
    return reply.header('Cache-Control', 'private, no-store').type('application/vnd.apple.mpegurl').send(body);
  });
}
