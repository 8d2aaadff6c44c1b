import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as operations from '../../../src/domain/contract/share-links.ts';
import { SHARE_PASS_HEADER } from '../../../src/domain/contract/share-links.ts';
import { openEventStream } from '../../events/sse.ts';
import { visibleProject } from '../../services/project-access.ts';
import {
  createShareLink,
  guestComment,
  guestComments,
  guestReview,
  listShareLinks,
  openShare,
  revokeShareLink,
  unlockShare,
} from '../../services/share-links.ts';
import { route } from '../operation-route.ts';

/**
 * Guest review links (issue 13, docs/api.md "Guest review"): the owner's calls under the project,
 * and the guest's own under `share/{token}`, public to the auth plugin since the token (and, for
 * a protected link, the pass in `x-share-pass`) is the credential, checked by the service.
 */

const tokenOf = (request: FastifyRequest) => (request.params as { token: string }).token;
const passOf = (request: FastifyRequest) => {
  const header = request.headers[SHARE_PASS_HEADER];
  return typeof header === 'string' && header ? header : undefined;
};
/** Counted per link and address (hashed: the counts live in the database). */
const perLink = (name: string, max: number) => ({
  rateLimit: {
    max,
    timeWindow: 60_000,
    keyGenerator: (request: FastifyRequest) =>
      `share-${name}:${createHash('sha256')
        .update(`${tokenOf(request)} ${request.ip}`)
        .digest('base64url')}`,
  },
});
/** Password attempts: a person mistypes a few times; a script guessing gets ten a minute. */
const PASSWORD_ATTEMPTS_PER_MINUTE = 10;
/** Comments a guest may post a minute, as for members. */
const GUEST_WRITES_PER_MINUTE = 60;
/** Guests hear of comments on their version and of the project's status, without the version's number. */
const GUEST_STREAM_USER = (linkId: number) => -linkId;

export default async function shareLinkRoutes(app: FastifyInstance) {
  const { ctx } = app;

  route(app, operations.listShareLinks, async ({ params }, request) => {
    const project = await visibleProject(ctx, request.auth, params.id);
    return listShareLinks(ctx, request.auth, project);
  });

  route(app, operations.createShareLink, async ({ params, body }, request) => {
    const project = await visibleProject(ctx, request.auth, params.id);
    return createShareLink(ctx, request.auth, project, body);
  });

  route(app, operations.revokeShareLink, async ({ params }, request) => {
    const project = await visibleProject(ctx, request.auth, params.id);
    await revokeShareLink(ctx, request.auth, project, params.linkId);
  });

  route(app, operations.getGuestReview, async ({ params }, request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return guestReview(ctx, params.token, passOf(request), app.prefix);
  });

  route(app, operations.unlockShare, async ({ params, body }) => unlockShare(ctx, params.token, body.password), {
    config: perLink('access', PASSWORD_ATTEMPTS_PER_MINUTE),
  });

  route(app, operations.listGuestComments, async ({ params }, request) => guestComments(ctx, await openShare(ctx, params.token, passOf(request))));

  route(
    app,
    operations.createGuestComment,
    async ({ params, body }, request) => {
      const share = await openShare(ctx, params.token, passOf(request));
      return guestComment(ctx, share, body);
    },
    { config: perLink('comments', GUEST_WRITES_PER_MINUTE) },
  );

  route(app, operations.guestEvents, async ({ params, query }, _, reply) => {
    const { pass } = query;
    const { token } = params;
    const { row, project } = await openShare(ctx, token, pass);
    openEventStream(app.events, reply, {
      userId: GUEST_STREAM_USER(row.id),
      shareLinkId: row.id,
      organizationId: project.organizationId,
      // The project's status, names shown with it (projectId null: the organization's), comments on the link's version.
      accepts: (event) =>
        (event.type === 'project' && (event.projectId === project.id || event.projectId === null)) ||
        (event.type === 'comment' && event.projectId === project.id && event.version === row.versionNumber),
      view: ({ version: _version, released: _released, ...event }) => event,
      // Revoked, expired, the project or its version gone: the link opens no more.
      stillAllowed: async () => Boolean(await openShare(ctx, token, pass)),
      endsAt: row.expiresAt,
    });
    return reply;
  });
}
