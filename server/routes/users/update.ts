import type { FastifyInstance } from 'fastify';
import { AssetPathBodyStruct, CustomerUserBodyStruct, SetEnabledBodyStruct, StaffUserBodyStruct, type User } from '../../../src/domain/contract/users.ts';
import { blankToNull } from '../../../src/domain/organization-rules.ts';
import { isCustomerRole } from '../../../src/domain/roles.ts';
import { USER_MESSAGES } from '../../../src/domain/user-management.ts';
import type { UserUpdate } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { badRequest, conflict, parse } from '../../http-error.ts';
import { usersRepo } from '../../repositories/users.ts';
import { requireStaff } from '../../services/staff-access.ts';
import { sendInvite, assertEmailFree, emailUsed, userDto } from '../../services/user-admin.ts';
import { targetUser } from './target.ts';

export default async function updateUserRoutes(app: FastifyInstance) {
  // C§7 / A§7: either { isEnabled } or the user's details; 200 with the user as saved.
  app.patch('/users/:id', async (request): Promise<User> => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const enabling = typeof body === 'object' && 'isEnabled' in body;
    const { target } = await targetUser(app.ctx, request, enabling ? 'enable' : 'edit');
    const users = usersRepo(app.ctx.db);
    let changes: UserUpdate;
    if (enabling) {
      changes = { isEnabled: parse(SetEnabledBodyStruct, body).isEnabled };
    } else if (isCustomerRole(target.role)) {
      const details = parse(CustomerUserBodyStruct, body);
      if (details.organizationId != null && details.organizationId !== target.organizationId) {
        throw badRequest(USER_MESSAGES.otherOrganization, { fields: { organizationId: USER_MESSAGES.otherOrganization } });
      }
      changes = { email: details.email.trim(), firstName: details.firstName.trim(), lastName: details.lastName.trim(), phone: details.phone };
    } else {
      const details = parse(StaffUserBodyStruct, body);
      changes = { email: details.email.trim(), firstName: details.firstName.trim(), lastName: details.lastName.trim() };
      if (details.phone !== undefined) changes.phone = blankToNull(details.phone);
      if (details.profilePictureUrl !== undefined) changes.profilePictureUrl = blankToNull(details.profilePictureUrl);
    }
    if (changes.email) await assertEmailFree(app.ctx, changes.email, target.id);
    // Disabling ends the user's sessions for good: re-enabling later does not revive old tokens.
    const write = enabling && changes.isEnabled === false ? users.updateEndingSessions(target.id, changes) : users.update(target.id, changes);
    await write.catch((error: unknown) => {
      throw isUniqueViolation(error) ? emailUsed() : error;
    });
    return userDto((await users.findById(target.id))!);
  });

  // Resend invite: a new single-use link; the previous unused one stops working.
  app.patch('/users/:id/invite-link', async (request, reply) => {
    const { target } = await targetUser(app.ctx, request, 'invite');
    if (!target.isEnabled) throw conflict(USER_MESSAGES.inviteDisabled);
    await sendInvite(app.ctx, target);
    return reply.code(204).send();
  });

  // A§7 editor drive link (link rule; empty or null clears it).
  app.patch('/users/:id/asset-path', async (request): Promise<User> => {
    await requireStaff(request, { managers: true });
    const { target } = await targetUser(app.ctx, request, 'edit', 'EDITOR');
    const { path } = parse(AssetPathBodyStruct, request.body);
    await usersRepo(app.ctx.db).update(target.id, { assetsPath: blankToNull(path) });
    return userDto((await usersRepo(app.ctx.db).findById(target.id))!);
  });
}
