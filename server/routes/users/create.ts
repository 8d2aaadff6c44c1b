import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/users.ts';
import { CustomerUserBodyStruct, RoleOnlyStruct, StaffUserBodyStruct } from '../../../src/domain/contract/users.ts';
import { USER_MESSAGES, createRoleRefusal, parseRoleName } from '../../../src/domain/user-management.ts';
import { badRequest, forbidden, parse } from '../../http-error.ts';
import { inviteCustomerUser, inviteStaffUser, userDto } from '../../services/user-admin.ts';
import { route } from '../operation-route.ts';

export default async function createUserRoute(app: FastifyInstance) {
  // C§7: the owner adds a User to the organization; A§7: staff add an Editor (or, for a superadmin, an Admin).
  // The role decides which body applies, so the body is parsed here, once the role is known.
  route(app, operations.createUser, async ({ body }, request) => {
    const { user: actor, impersonatorId } = request.auth;
    if (impersonatorId !== null) throw forbidden(USER_MESSAGES.impersonating);
    const raw = parse(RoleOnlyStruct, body).role;
    const role = raw === undefined ? (actor.role === 'OWNER' ? 'USER' : 'EDITOR') : typeof raw === 'string' ? parseRoleName(raw) : null;
    if (!role) throw badRequest(USER_MESSAGES.roleInvalid, { fields: { role: USER_MESSAGES.roleInvalid } });
    // Issue 36: a superadmin adds editors and admins, an admin editors only; nobody adds a superadmin.
    const refusal = createRoleRefusal(actor.role, role);
    if (refusal) throw forbidden(refusal);

    let created;
    if (role === 'USER') {
      if (actor.organizationId === null) throw forbidden();
      created = await inviteCustomerUser(app.ctx, actor.organizationId, parse(CustomerUserBodyStruct, body));
    } else {
      created = await inviteStaffUser(app.ctx, role, parse(StaffUserBodyStruct, body));
    }
    request.log.info({ userId: created.id, role, by: actor.id }, 'user invited');
    return userDto(created);
  });
}
