import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/users.ts';
import { STAFF_ROLES, type RoleName } from '../../../src/domain/roles.ts';
import { mayListUsers } from '../../../src/domain/user-management.ts';
import { forbidden } from '../../http-error.ts';
import { userAdminRepo } from '../../repositories/user-admin.ts';
import { trialUsers, userDto } from '../../services/user-admin.ts';
import { route } from '../operation-route.ts';

const ROLES_OF: Record<string, readonly RoleName[]> = { editor: ['EDITOR'], admin: ['ADMIN'], superadmin: ['SUPERADMIN'], staff: STAFF_ROLES };

export default async function listUsersRoutes(app: FastifyInstance) {
  // A§7 users by role: the editors page (role=editor, 50) and staff settings (role=staff, 100).
  // An EDITOR may read the editors list only: the dashboard it shares shows editors by name.
  route(app, operations.listUsers, async ({ query: { role, start, limit } }, request) => {
    if (!mayListUsers(request.auth.user.role, role)) throw forbidden();
    const users = await userAdminRepo(app.ctx.db).listByRoles(ROLES_OF[role]!, start, limit);
    return users.map(userDto);
  });

  // A§2 trial users: owners whose organization has no subscription yet (docs/decisions.md).
  route(app, operations.listTrialUsers, async ({ query: { start, limit } }) => trialUsers(app.ctx, start, limit));
}
