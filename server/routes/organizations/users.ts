import type { FastifyInstance } from 'fastify';
import { OrganizationUsersQueryStruct, type User } from '../../../src/domain/contract/users.ts';
import { notFound, parse } from '../../http-error.ts';
import { authenticate } from '../../plugins/auth.ts';
import { organizationsRepo } from '../../repositories/organizations.ts';
import { userAdminRepo } from '../../repositories/user-admin.ts';
import { assertOrganizationVisible } from '../../services/staff-access.ts';
import { userDto } from '../../services/user-admin.ts';
import { idParam } from '../params.ts';

export default async function organizationUsersRoute(app: FastifyInstance) {
  // C§7 settings users list and A§2 organization page users (deleted users are never returned).
  app.get('/organizations/:id/users', async (request): Promise<User[]> => {
    const auth = await authenticate(request);
    const id = idParam(request.params);
    assertOrganizationVisible(auth, id);
    const { start, limit } = parse(OrganizationUsersQueryStruct, request.query);
    if (!(await organizationsRepo(app.ctx.db).findById(id))) throw notFound();
    const users = await userAdminRepo(app.ctx.db).listByOrganization(id, start, limit);
    return users.map(userDto);
  });
}
