import type { FastifyInstance } from 'fastify';
import { signInAsOwner } from '../../services/organization-admin.ts';
import { idParam } from '../params.ts';

export default async function adminLoginRoute(app: FastifyInstance) {
  // A§2 Log In As: a token for the organization's owner that names the admin as impersonator.
  app.get('/organizations/:id/admin/login', { config: { access: 'managers' } }, async (request) => {
    const { user: admin } = request.auth;
    const id = idParam(request.params);
    const { ownerId, ...session } = await signInAsOwner(app.ctx, admin, id, request.ip);
    request.log.info({ adminId: admin.id, organizationId: id, ownerId }, 'admin signed in as organization');
    return session;
  });
}
