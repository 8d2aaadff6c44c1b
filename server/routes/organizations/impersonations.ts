import type { FastifyInstance } from 'fastify';
import { ImpersonationListQueryStruct, type Impersonation } from '../../../src/domain/contract/impersonations.ts';
import { forbidden, parse } from '../../http-error.ts';
import { impersonationsRepo } from '../../repositories/impersonations.ts';
import { listImpersonations } from '../../services/impersonation-trail.ts';

/** The Log In As trail (issue 36 item 10): recorded by GET organizations/{id}/admin/login. */
export default async function impersonationRoutes(app: FastifyInstance) {
  app.get('/impersonations', { config: { access: 'superadmins' } }, async (request): Promise<Impersonation[]> => {
    const { start, limit } = parse(ImpersonationListQueryStruct, request.query);
    return listImpersonations(app.ctx.db, start, limit);
  });

  // Admin logout (or a sign-out) while signed in as a customer: the session's end, on the trail.
  app.post('/impersonations/end', async (request, reply) => {
    const { auth, session } = request;
    if (auth.impersonatorId === null) throw forbidden();
    if (session.impersonationId !== null) await impersonationsRepo(app.ctx.db).end(session.impersonationId, auth.impersonatorId, new Date());
    return reply.code(204).send();
  });
}
