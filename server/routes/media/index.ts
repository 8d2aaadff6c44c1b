import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import * as operations from '../../../src/domain/contract/media.ts';
import type { MediaFile } from '../../../src/domain/media.ts';
import { forbidden, notFound } from '../../http-error.ts';
import {
  MEDIA_MESSAGES,
  downloadLink,
  finalVideoFile,
  mediaLinkTarget,
  projectMediaJobs,
  registerDeliverable,
  variantPlaylist,
  type MediaAnswer,
} from '../../services/media.ts';
import { visibleProject } from '../../services/project-access.ts';
import { rawZip, rawZipLink, rawZipManifest, takeZipStream, zipBody, zipLinkProject, zipStreamRefusal } from '../../services/project-zip.ts';
import { toProject } from '../../services/project-view.ts';
import { requireUploadAllowed } from '../../services/uploads.ts';
import { browserPresigner } from '../../storage/setup.ts';
import { route } from '../operation-route.ts';
import { contentRange, parseRange } from '../../storage/embedded-s3/range.ts';

function unavailable(reply: FastifyReply, state: Extract<MediaAnswer, { kind: 'unavailable' }>['state']) {
  if (state === 'processing' || state === 'none') {
    return reply.code(503).header('Retry-After', '5').header('Cache-Control', 'no-store').send({ message: MEDIA_MESSAGES.processing });
  }
  return reply
    .code(404)
    .header('Cache-Control', 'no-store')
    .send({ message: state === 'failed' ? MEDIA_MESSAGES.failed : MEDIA_MESSAGES.missing });
}

/** A media link's answer as HTTP: 503/404 while not there, the playlist, or a redirect; never cached. */
function sendMedia(reply: FastifyReply, answer: MediaAnswer) {
  if (answer.kind === 'unavailable') return unavailable(reply, answer.state);
  reply.header('Cache-Control', 'private, no-store');
  if (answer.kind === 'playlist') return reply.type('application/vnd.apple.mpegurl').send(answer.body);
  return reply.redirect(answer.url, 302);
}

const FILES: Record<string, MediaFile> = {
  'preview.mp4': 'preview',
  'stream.m3u8': 'stream',
  'thumbnail.jpg': 'thumbnail',
  'hd.mp4': 'hd',
  'low-res.mp4': 'lowRes',
};

export default async function mediaRoutes(app: FastifyInstance) {
  const { ctx } = app;

  // A§7: staff (not editors) register the final video they uploaded (upload type deliverable).
  route(app, operations.registerDeliverable, async ({ params, body }, request) => {
    const { auth } = request;
    const project = await visibleProject(ctx, auth, params.id);
    if (auth.impersonatorId !== null) throw forbidden();
    requireUploadAllowed(auth, project, 'deliverable');
    return toProject(await registerDeliverable(ctx, project, body, request.log));
  });

  // A§7: a short-lived GET link to an original or its proxy, for anyone who may see the project.
  route(app, operations.requestDownloadLink, async ({ params, body }, request) => {
    const { auth } = request;
    const project = await visibleProject(ctx, auth, params.id);
    return downloadLink(ctx, browserPresigner(app, request), auth, project, body);
  });

  // Issue 34: the raw zip, streamed by the server from the stored originals.
  route(app, operations.requestZipLink, async ({ params }, request) => {
    const project = await visibleProject(ctx, request.auth, params.id);
    return rawZipLink(ctx, app.prefix, project, request.session);
  });

  route(app, operations.downloadAssetManifest, async ({ params }, request, reply) => {
    const project = await visibleProject(ctx, request.auth, params.id);
    const manifest = await rawZipManifest(ctx, project.id);
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${manifest.name}"`)
      .header('Cache-Control', 'no-store')
      .send(manifest.body);
  });

  route(app, operations.downloadZip, async ({ params }, request, reply) => {
    const { project, userId } = await zipLinkProject(ctx, params.token);
    const zip = await rawZip(ctx, project.id);
    if (params.file !== zip.name) throw notFound();
    // A download cut short goes on where it stopped (Range, If-Range: how browsers resume one),
    // as long as the archive is still the same (its ETag) and the link still valid.
    const ifRange = request.headers['if-range'];
    const range = ifRange === undefined || ifRange === zip.etag ? parseRange(request.headers.range, zip.size) : ({ kind: 'whole' } as const);
    if (range.kind === 'unsatisfiable') return reply.code(416).header('Content-Range', `bytes */${zip.size}`).send({ message: 'The zip is not that long.' });
    const start = range.kind === 'partial' ? range.start : 0;
    const end = range.kind === 'partial' ? range.end : zip.size - 1;
    const headers = {
      'Content-Type': 'application/zip',
      'Content-Length': String(end - start + 1),
      'Content-Disposition': `attachment; filename="${zip.name}"`,
      'Cache-Control': 'private, no-store',
      'Accept-Ranges': 'bytes',
      ETag: zip.etag,
      ...(range.kind === 'partial' && { 'Content-Range': contentRange(start, end, zip.size) }),
    };
    if (range.kind === 'partial') reply.code(206);
    // HEAD (Fastify answers it with this handler): the headers only, nothing read. An empty
    // stream, not nothing: Fastify's HEAD keeps the declared length for a stream, and sets 0 for none.
    // It answers 429/503 as the GET would now, so the page can say why before the download starts.
    if (request.method === 'HEAD') {
      const refusal = zipStreamRefusal(userId);
      if (refusal) throw refusal;
      return reply.headers(headers).send(Readable.from([]));
    }
    const done = takeZipStream(userId);
    reply.raw.once('close', done);
    // Node refuses to send more or fewer bytes than the declared length: a short archive ends the
    // connection (the browser marks the download failed), never passes for a whole one.
    reply.raw.strictContentLength = true;
    const body = zipBody(zip, start, end);
    body.on('error', (error) => request.log.error({ err: error, projectId: project.id }, 'a raw zip failed while streaming'));
    reply.headers(headers);
    return reply.send(body);
  });

  // Staff see the media work of a project, failed jobs with their error.
  route(app, operations.listMediaJobs, async ({ params }, request) => {
    const project = await visibleProject(ctx, request.auth, params.id);
    return { data: await projectMediaJobs(ctx, project.id) };
  });

  route(app, operations.getMediaFile, async ({ params }, request, reply) => {
    const file = FILES[params.file];
    if (!file) throw notFound();
    // The project's final video, or the version the link names (issue 13).
    const target = await mediaLinkTarget(ctx, params.token);
    return sendMedia(reply, await finalVideoFile(ctx, browserPresigner(app, request), target, file));
  });

  // A variant playlist of the HLS rendition, its segments presigned for the browser.
  route(app, operations.getStreamVariant, async ({ params }, request, reply) => {
    if (!/^v\d{1,2}$/.test(params.variant)) throw notFound();
    const target = await mediaLinkTarget(ctx, params.token);
    return sendMedia(reply, await variantPlaylist(ctx, browserPresigner(app, request), target, params.variant));
  });
}
