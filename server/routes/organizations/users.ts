import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/users.ts';
import { notFound } from '../../http-error.ts';
import { organizationsRepo } from '../../repositories/organizations.ts';
import { userAdminRepo } from '../../repositories/user-admin.ts';
import { userDto } from '../../services/user-admin.ts';
import { route } from '../operation-route.ts';

export default async function organizationUsersRoute(app: FastifyInstance) {
  // C§7 settings users list and A§2 organization page users (deleted users are never returned).
  route(app, operations.listOrganizationUsers, async ({ params: { id }, query: { start, limit } }) => {
    if (!(await organizationsRepo(app.ctx.db).findById(id))) throw notFound();
    const users = await userAdminRepo(app.ctx.db).listByOrganization(id, start, limit);
    return users.map(userDto);
  });
}
