import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/impersonations.ts';
import { forbidden } from '../../http-error.ts';
import { impersonationsRepo } from '../../repositories/impersonations.ts';
import { listImpersonations } from '../../services/impersonation-trail.ts';
import { route } from '../operation-route.ts';

/** The Log In As trail (issue 36 item 10): recorded by GET organizations/{id}/admin/login. */
export default async function impersonationRoutes(app: FastifyInstance) {
  route(app, operations.listImpersonations, async ({ query: { start, limit } }) => listImpersonations(app.ctx.db, start, limit));

  // Admin logout (or a sign-out) while signed in as a customer: the session's end, on the trail.
  route(app, operations.endImpersonation, async (_, request) => {
    const { auth, session } = request;
    if (auth.impersonatorId === null) throw forbidden();
    if (session.impersonationId !== null) await impersonationsRepo(app.ctx.db).end(session.impersonationId, auth.impersonatorId, new Date());
  });
}
