import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DeliverableBodyStruct, LinkBodyStruct, type Link } from '../../../src/domain/contract/media.ts';
import type { MediaFile } from '../../../src/domain/media.ts';
import { parseAssetType } from '../../../src/domain/uploads.ts';
import { forbidden, notFound, parse } from '../../http-error.ts';
import { MEDIA_MESSAGES, downloadLink, finalVideoFile, mediaLinkTarget, projectMediaJobs, registerDeliverable, variantPlaylist, type MediaAnswer } from '../../services/media.ts';
import { visibleProject } from '../../services/project-access.ts';
import { toProject } from '../../services/project-view.ts';
import { requireUploadAllowed } from '../../services/uploads.ts';
import { browserPresigner } from '../../storage/setup.ts';
import { idParam } from '../params.ts';

function unavailable(reply: FastifyReply, state: Extract<MediaAnswer, { kind: 'unavailable' }>['state']) {
  if (state === 'processing' || state === 'none') {
    return reply.code(503).header('Retry-After', '5').header('Cache-Control', 'no-store').send({ message: MEDIA_MESSAGES.processing });
  }
  return reply.code(404).header('Cache-Control', 'no-store').send({ message: state === 'failed' ? MEDIA_MESSAGES.failed : MEDIA_MESSAGES.missing });
}

/** A media link's answer as HTTP: 503/404 while not there, the playlist, or a redirect; never cached. */
function sendMedia(reply: FastifyReply, answer: MediaAnswer) {
  if (answer.kind === 'unavailable') return unavailable(reply, answer.state);
  reply.header('Cache-Control', 'private, no-store');
  if (answer.kind === 'playlist') return reply.type('application/vnd.apple.mpegurl').send(answer.body);
  return reply.redirect(answer.url, 302);
}

const FILES: Record<string, MediaFile> = { 'preview.mp4': 'preview', 'stream.m3u8': 'stream', 'thumbnail.jpg': 'thumbnail', 'hd.mp4': 'hd', 'low-res.mp4': 'lowRes' };

const token = (request: FastifyRequest) => (request.params as { token: string }).token;

export default async function mediaRoutes(app: FastifyInstance) {
  const { ctx } = app;

  // A§7: staff (not editors) register the final video they uploaded (upload type deliverable).
  app.post('/projects/:id/deliverable', async (request) => {
    const { auth } = request;
    const project = await visibleProject(ctx, auth, idParam(request.params));
    if (auth.impersonatorId !== null) throw forbidden();
    requireUploadAllowed(auth, project, 'deliverable');
    const body = parse(DeliverableBodyStruct, request.body);
    return toProject(await registerDeliverable(ctx, project, body, request.log));
  });

  // A§7: a short-lived GET link to an original or its proxy, for anyone who may see the project.
  app.post('/projects/:id/links', async (request): Promise<Link> => {
    const { auth } = request;
    const project = await visibleProject(ctx, auth, idParam(request.params));
    const raw = (request.body ?? {}) as Record<string, unknown>;
    const body = parse(LinkBodyStruct, { ...raw, ...(raw.type !== undefined && { type: parseAssetType(raw.type) ?? raw.type }) });
    return downloadLink(ctx, browserPresigner(app, request), auth, project, body);
  });

  // Staff see the media work of a project, failed jobs with their error.
  app.get('/projects/:id/media-jobs', { config: { access: 'staff' } }, async (request) => {
    const { auth } = request;
    const project = await visibleProject(ctx, auth, idParam(request.params));
    return { data: await projectMediaJobs(ctx, project.id) };
  });

  app.get('/media/:token/:file', { config: { access: 'public' } }, async (request, reply) => {
    const file = FILES[(request.params as { file: string }).file];
    if (!file) throw notFound();
    // The project's final video, or the version the link names (issue 13).
    const target = await mediaLinkTarget(ctx, token(request));
    return sendMedia(reply, await finalVideoFile(ctx, browserPresigner(app, request), target, file));
  });

  // A variant playlist of the HLS rendition, its segments presigned for the browser.
  app.get('/media/:token/stream/:variant/playlist.m3u8', { config: { access: 'public' } }, async (request, reply) => {
    const { variant } = request.params as { variant: string };
    if (!/^v\d{1,2}$/.test(variant)) throw notFound();
    const target = await mediaLinkTarget(ctx, token(request));
    return sendMedia(reply, await variantPlaylist(ctx, browserPresigner(app, request), target, variant));
  });
}
