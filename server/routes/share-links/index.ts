import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CreateShareLinkBodyStruct, GuestCommentBodyStruct, GuestStreamQueryStruct, SHARE_PASS_HEADER, ShareAccessBodyStruct } from '../../../src/domain/contract/share-links.ts';
import { parse } from '../../http-error.ts';
import { openEventStream } from '../../events/sse.ts';
import { visibleProject } from '../../services/project-access.ts';
import { createShareLink, guestComment, guestComments, guestReview, listShareLinks, openShare, revokeShareLink, unlockShare } from '../../services/share-links.ts';
import { idParam } from '../params.ts';

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
  rateLimit: { max, timeWindow: 60_000, keyGenerator: (request: FastifyRequest) => `share-${name}:${createHash('sha256').update(`${tokenOf(request)} ${request.ip}`).digest('base64url')}` },
});
/** Password attempts: a person mistypes a few times; a script guessing gets ten a minute. */
const PASSWORD_ATTEMPTS_PER_MINUTE = 10;
/** Comments a guest may post a minute, as for members. */
const GUEST_WRITES_PER_MINUTE = 60;
/** Guests hear of comments on their version and of the project's status, without the version's number. */
const GUEST_STREAM_USER = (linkId: number) => -linkId;

export default async function shareLinkRoutes(app: FastifyInstance) {
  const { ctx } = app;

  app.get('/projects/:id/share-links', { config: { access: 'customer' } }, async (request) => {
    const project = await visibleProject(ctx, request.auth, idParam(request.params));
    return listShareLinks(ctx, request.auth, project);
  });

  app.post('/projects/:id/share-links', { config: { access: 'owner' } }, async (request, reply) => {
    const project = await visibleProject(ctx, request.auth, idParam(request.params));
    const link = await createShareLink(ctx, request.auth, project, parse(CreateShareLinkBodyStruct, request.body));
    reply.code(201);
    return link;
  });

  app.delete('/projects/:id/share-links/:linkId', { config: { access: 'owner' } }, async (request, reply) => {
    const project = await visibleProject(ctx, request.auth, idParam(request.params));
    await revokeShareLink(ctx, request.auth, project, idParam(request.params, 'linkId'));
    reply.code(204);
  });

  app.get('/share/:token', { config: { access: 'public' } }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return guestReview(ctx, tokenOf(request), passOf(request), app.prefix);
  });

  app.post('/share/:token/access', { config: { access: 'public', ...perLink('access', PASSWORD_ATTEMPTS_PER_MINUTE) } }, async (request) => {
    const { password } = parse(ShareAccessBodyStruct, request.body);
    return unlockShare(ctx, tokenOf(request), password);
  });

  app.get('/share/:token/comments', { config: { access: 'public' } }, async (request) => {
    return guestComments(ctx, await openShare(ctx, tokenOf(request), passOf(request)));
  });

  app.post('/share/:token/comments', { config: { access: 'public', ...perLink('comments', GUEST_WRITES_PER_MINUTE) } }, async (request, reply) => {
    const share = await openShare(ctx, tokenOf(request), passOf(request));
    const comment = await guestComment(ctx, share, parse(GuestCommentBodyStruct, request.body));
    reply.code(201);
    return comment;
  });

  app.get('/share/:token/events', { config: { access: 'public' } }, async (request, reply) => {
    const { pass } = parse(GuestStreamQueryStruct, request.query);
    const token = tokenOf(request);
    const { row, project } = await openShare(ctx, token, pass);
    openEventStream(app.events, reply, {
      userId: GUEST_STREAM_USER(row.id),
      shareLinkId: row.id,
      organizationId: project.organizationId,
      // The project's status, names shown with it (projectId null: the organization's), comments on the link's version.
      accepts: (event) => (event.type === 'project' && (event.projectId === project.id || event.projectId === null)) || (event.type === 'comment' && event.projectId === project.id && event.version === row.versionNumber),
      view: ({ version: _version, released: _released, ...event }) => event,
      // Revoked, expired, the project or its version gone: the link opens no more.
      stillAllowed: async () => Boolean(await openShare(ctx, token, pass)),
      endsAt: row.expiresAt,
    });
    return reply;
  });
}
