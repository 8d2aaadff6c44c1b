import type { FastifyInstance } from 'fastify';
import { OrganizationUsersQueryStruct, type User } from '../../../src/domain/contract/users.ts';
import { notFound, parse } from '../../http-error.ts';
import { organizationsRepo } from '../../repositories/organizations.ts';
import { userAdminRepo } from '../../repositories/user-admin.ts';
import { userDto } from '../../services/user-admin.ts';
import { idParam } from '../params.ts';

export default async function organizationUsersRoute(app: FastifyInstance) {
  // C§7 settings users list and A§2 organization page users (deleted users are never returned).
  app.get('/organizations/:id/users', { config: { organizationParam: 'id' } }, async (request): Promise<User[]> => {
    const id = idParam(request.params);
    const { start, limit } = parse(OrganizationUsersQueryStruct, request.query);
    if (!(await organizationsRepo(app.ctx.db).findById(id))) throw notFound();
    const users = await userAdminRepo(app.ctx.db).listByOrganization(id, start, limit);
    return users.map(userDto);
  });
}
