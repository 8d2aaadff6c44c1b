import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CommentsExportQueryStruct, CommentsQueryStruct, CreateCommentBodyStruct, UpdateCommentBodyStruct } from '../../../src/domain/contract/review.ts';
import { mediaUrl, signMediaToken } from '../../media/media-links.ts';
import { parse } from '../../http-error.ts';
import { visibleProject } from '../../services/project-access.ts';
import { createComment, deleteComment, exportComments, listComments, listVersions, memberCaller, threadOf, updateComment } from '../../services/review.ts';
import { idParam } from '../params.ts';

/**
 * Frame-accurate review: a project's versions and the time-coded comments on them. Anyone who
 * may see the project calls these (another organization's project is 404); which versions and
 * comments they see and may change is src/domain/review-rules.ts's, applied by the service.
 */
/** Comment writes one account may make per minute: far above what a person types, a ceiling for a script. */
const COMMENT_WRITES_PER_MINUTE = 60;

/**
 * @fastify/rate-limit config counting per session token (hashed: the counts live in the
 * database), so one account cannot flood a version from many addresses.
 */
const perAccountWrites = {
  rateLimit: {
    max: COMMENT_WRITES_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request: FastifyRequest) => `comments:${createHash('sha256').update(request.headers.authorization ?? request.ip).digest('base64url')}`,
  },
};

export default async function reviewRoutes(app: FastifyInstance) {
  app.get('/projects/:id/versions', { config: { access: 'signed-in' } }, async (request) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, idParam(request.params));
    // Media links signed for this session: the project's own (version null) or one version's.
    const links = (version: number | null) => {
      const token = signMediaToken(app.ctx.config.jwtSecret, project.id, request.session, Date.now(), version);
      return { preview: mediaUrl(app.prefix, token, 'preview'), stream: mediaUrl(app.prefix, token, 'stream'), thumbnail: mediaUrl(app.prefix, token, 'thumbnail') };
    };
    return listVersions(app.ctx, auth, project, links);
  });

  app.get('/projects/:id/comments', { config: { access: 'signed-in' } }, async (request) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, idParam(request.params));
    const { version } = parse(CommentsQueryStruct, request.query);
    return listComments(app.ctx, memberCaller(auth), project, version);
  });

  // The thread of one comment: what a page reads when the event stream names a changed comment.
  app.get('/projects/:id/comments/:commentId', { config: { access: 'signed-in' } }, async (request) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, idParam(request.params));
    return threadOf(app.ctx, memberCaller(auth), project, idParam(request.params, 'commentId'));
  });

  app.post('/projects/:id/comments', { config: { access: 'signed-in', ...perAccountWrites } }, async (request, reply) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, idParam(request.params));
    const body = parse(CreateCommentBodyStruct, request.body);
    const comment = await createComment(app.ctx, memberCaller(auth), project, body);
    reply.code(201);
    return comment;
  });

  app.patch('/projects/:id/comments/:commentId', { config: { access: 'signed-in', ...perAccountWrites } }, async (request) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, idParam(request.params));
    const commentId = idParam(request.params, 'commentId');
    return updateComment(app.ctx, memberCaller(auth), project, commentId, parse(UpdateCommentBodyStruct, request.body));
  });

  app.delete('/projects/:id/comments/:commentId', { config: { access: 'signed-in' } }, async (request, reply) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, idParam(request.params));
    await deleteComment(app.ctx, memberCaller(auth), project, idParam(request.params, 'commentId'));
    reply.code(204);
  });

  // Staff import the markers into their editing application.
  app.get('/projects/:id/comments/export', { config: { access: 'staff' } }, async (request, reply) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, idParam(request.params));
    const { version, format } = parse(CommentsExportQueryStruct, request.query);
    const file = await exportComments(app.ctx, auth, project, version, format);
    return reply
      .header('Content-Type', file.contentType)
      .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
      .header('Cache-Control', 'no-store')
      .send(file.body);
  });
}
