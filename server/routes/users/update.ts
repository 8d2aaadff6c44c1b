import type { FastifyInstance } from 'fastify';
import { AssetPathBodyStruct, CustomerUserBodyStruct, SetEnabledBodyStruct, StaffUserBodyStruct, type User } from '../../../src/domain/contract/users.ts';
import { isCustomerRole } from '../../../src/domain/roles.ts';
import { USER_MESSAGES } from '../../../src/domain/user-management.ts';
import { conflict, parse } from '../../http-error.ts';
import { sendInvite, setEditorAssetsPath, setUserEnabled, updateCustomerUser, updateStaffUser, userDto } from '../../services/user-admin.ts';
import { targetUser } from './target.ts';

export default async function updateUserRoutes(app: FastifyInstance) {
  // C§7 / A§7: either { isEnabled } or the user's details; 200 with the user as saved.
  app.patch('/users/:id', async (request): Promise<User> => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const enabling = typeof body === 'object' && 'isEnabled' in body;
    const { target } = await targetUser(app.ctx, request, enabling ? 'enable' : 'edit');
    if (enabling) return userDto(await setUserEnabled(app.ctx, target, parse(SetEnabledBodyStruct, body).isEnabled));
    // A§2: a user's details are edited only while the user is enabled (both portals' tables say so).
    if (!target.isEnabled) throw conflict(USER_MESSAGES.editDisabled);
    if (isCustomerRole(target.role)) return userDto(await updateCustomerUser(app.ctx, target, parse(CustomerUserBodyStruct, body)));
    return userDto(await updateStaffUser(app.ctx, target, parse(StaffUserBodyStruct, body)));
  });

  // Resend invite: a new single-use link; the previous unused one stops working.
  app.patch('/users/:id/invite-link', async (request, reply) => {
    const { target } = await targetUser(app.ctx, request, 'invite');
    if (!target.isEnabled) throw conflict(USER_MESSAGES.inviteDisabled);
    await sendInvite(app.ctx, target);
    return reply.code(204).send();
  });

  // A§7 editor drive link (link rule; empty or null clears it).
  app.patch('/users/:id/asset-path', { config: { access: 'managers' } }, async (request): Promise<User> => {
    const { target } = await targetUser(app.ctx, request, 'edit', 'EDITOR');
    const { path } = parse(AssetPathBodyStruct, request.body);
    return userDto(await setEditorAssetsPath(app.ctx, target, path));
  });
}
