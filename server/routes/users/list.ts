import type { FastifyInstance } from 'fastify';
import { TrialUsersQueryStruct, UsersQueryStruct, type TrialUser, type User } from '../../../src/domain/contract/users.ts';
import { STAFF_ROLES, isManagerRole, type RoleName } from '../../../src/domain/roles.ts';
import { TRIAL_DAYS } from '../../../src/domain/user-management.ts';
import { forbidden, parse } from '../../http-error.ts';
import { userAdminRepo } from '../../repositories/user-admin.ts';
import { requireStaff } from '../../services/staff-access.ts';
import { userDto } from '../../services/user-admin.ts';

const ROLES_OF: Record<string, readonly RoleName[]> = { editor: ['EDITOR'], admin: ['ADMIN'], superadmin: ['SUPERADMIN'], staff: STAFF_ROLES };

export default async function listUsersRoutes(app: FastifyInstance) {
  // A§7 users by role: the editors page (role=editor, 50) and staff settings (role=staff, 100).
  // An EDITOR may read the editors list only: the dashboard it shares shows editors by name.
  app.get('/users', async (request): Promise<User[]> => {
    const { user } = await requireStaff(request);
    const { role, start, limit } = parse(UsersQueryStruct, request.query);
    if (role !== 'editor' && !isManagerRole(user.role)) throw forbidden();
    const users = await userAdminRepo(app.ctx.db).listByRoles(ROLES_OF[role]!, start, limit);
    return users.map(userDto);
  });

  // A§2 trial users: owners whose organization has no subscription yet (docs/decisions.md).
  app.get('/users/trial', async (request): Promise<TrialUser[]> => {
    await requireStaff(request, { managers: true });
    const { start, limit } = parse(TrialUsersQueryStruct, request.query);
    const rows = await userAdminRepo(app.ctx.db).trialOwners(start, limit);
    return rows.map((row) => ({
      id: row.id,
      organizationId: row.organizationId,
      organizationName: row.organizationName,
      email: row.email,
      firstName: row.firstName,
      lastName: row.lastName,
      codeExpiration: new Date(row.organizationCreatedAt.getTime() + TRIAL_DAYS * 86_400_000).toISOString(),
      link: `${app.ctx.config.publicUrl}/login/user`,
    }));
  });
}
