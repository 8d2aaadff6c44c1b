import type { FastifyInstance } from 'fastify';
import { CustomerUserBodyStruct, RoleOnlyStruct, StaffUserBodyStruct, type User } from '../../../src/domain/contract/users.ts';
import { USER_MESSAGES, createRoleRefusal, parseRoleName } from '../../../src/domain/user-management.ts';
import { badRequest, forbidden, parse } from '../../http-error.ts';
import { inviteCustomerUser, inviteStaffUser, userDto } from '../../services/user-admin.ts';

export default async function createUserRoute(app: FastifyInstance) {
  // C§7: the owner adds a User to the organization; A§7: staff add an Editor (or, for a superadmin, an Admin).
  app.post('/users', async (request, reply): Promise<User> => {
    const { user: actor, impersonatorId } = request.auth;
    if (impersonatorId !== null) throw forbidden(USER_MESSAGES.impersonating);
    const raw = parse(RoleOnlyStruct, request.body).role;
    const role = raw === undefined ? (actor.role === 'OWNER' ? 'USER' : 'EDITOR') : typeof raw === 'string' ? parseRoleName(raw) : null;
    if (!role) throw badRequest(USER_MESSAGES.roleInvalid, { fields: { role: USER_MESSAGES.roleInvalid } });
    // Issue 36: a superadmin adds editors and admins, an admin editors only; nobody adds a superadmin.
    const refusal = createRoleRefusal(actor.role, role);
    if (refusal) throw forbidden(refusal);

    let created;
    if (role === 'USER') {
      if (actor.organizationId === null) throw forbidden();
      created = await inviteCustomerUser(app.ctx, actor.organizationId, parse(CustomerUserBodyStruct, request.body));
    } else {
      created = await inviteStaffUser(app.ctx, role, parse(StaffUserBodyStruct, request.body));
    }
    request.log.info({ userId: created.id, role, by: actor.id }, 'user invited');
    reply.code(201);
    return userDto(created);
  });
}
