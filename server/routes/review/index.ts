import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as operations from '../../../src/domain/contract/review.ts';
import { mediaUrl, signMediaToken } from '../../media/media-links.ts';
import { visibleProject } from '../../services/project-access.ts';
import { createComment, deleteComment, exportComments, listComments, listVersions, memberCaller, threadOf, updateComment } from '../../services/review.ts';
import { route } from '../operation-route.ts';

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
    keyGenerator: (request: FastifyRequest) =>
      `comments:${createHash('sha256')
        .update(request.headers.authorization ?? request.ip)
        .digest('base64url')}`,
  },
};

export default async function reviewRoutes(app: FastifyInstance) {
  route(app, operations.listVersions, async ({ params }, request) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, params.id);
    // Media links signed for this session: the project's own (version null) or one version's.
    const links = (version: number | null) => {
      const token = signMediaToken(app.ctx.config.jwtSecret, project.id, request.session, Date.now(), version);
      return {
        preview: mediaUrl(app.prefix, token, 'preview'),
        stream: mediaUrl(app.prefix, token, 'stream'),
        thumbnail: mediaUrl(app.prefix, token, 'thumbnail'),
      };
    };
    return listVersions(app.ctx, auth, project, links);
  });

  route(app, operations.listComments, async ({ params, query }, request) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, params.id);
    return listComments(app.ctx, memberCaller(auth), project, query.version);
  });

  route(app, operations.getThread, async ({ params }, request) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, params.id);
    return threadOf(app.ctx, memberCaller(auth), project, params.commentId);
  });

  route(
    app,
    operations.createComment,
    async ({ params, body }, request) => {
      const { auth } = request;
      const project = await visibleProject(app.ctx, auth, params.id);
      return createComment(app.ctx, memberCaller(auth), project, body);
    },
    { config: perAccountWrites },
  );

  route(
    app,
    operations.updateComment,
    async ({ params, body }, request) => {
      const { auth } = request;
      const project = await visibleProject(app.ctx, auth, params.id);
      return updateComment(app.ctx, memberCaller(auth), project, params.commentId, body);
    },
    { config: perAccountWrites },
  );

  route(app, operations.deleteComment, async ({ params }, request) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, params.id);
    await deleteComment(app.ctx, memberCaller(auth), project, params.commentId);
  });

  route(app, operations.exportComments, async ({ params, query }, request, reply) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, params.id);
    const file = await exportComments(app.ctx, auth, project, query.version, query.format);
    return reply
      .header('Content-Type', file.contentType)
      .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
      .header('Cache-Control', 'no-store')
      .send(file.body);
  });
}
