import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/customers.ts';
import { signInAsOwner } from '../../services/organization-admin.ts';
import { route } from '../operation-route.ts';

export default async function adminLoginRoute(app: FastifyInstance) {
  // A§2 Log In As: a token for the organization's owner that names the admin as impersonator.
  route(app, operations.adminLogin, async ({ params: { id } }, request) => {
    const { user: admin } = request.auth;
    const { ownerId, token } = await signInAsOwner(app.ctx, admin, id, request.ip);
    request.log.info({ adminId: admin.id, organizationId: id, ownerId }, 'admin signed in as organization');
    return { token, organizationId: id };
  });
}
