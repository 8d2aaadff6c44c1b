import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/users.ts';
import { CustomerUserBodyStruct, SetEnabledBodyStruct, StaffUserBodyStruct } from '../../../src/domain/contract/users.ts';
import { isCustomerRole } from '../../../src/domain/roles.ts';
import { USER_MESSAGES } from '../../../src/domain/user-management.ts';
import { conflict, parse } from '../../http-error.ts';
import { sendInvite, setEditorAssetsPath, setUserEnabled, updateCustomerUser, updateStaffUser, userDto } from '../../services/user-admin.ts';
import { route } from '../operation-route.ts';
import { targetUser } from './target.ts';

export default async function updateUserRoutes(app: FastifyInstance) {
  // C§7 / A§7: either { isEnabled } or the user's details; 200 with the user as saved. Which body
  // applies depends on the user, so it is parsed here, once the user is known.
  route(app, operations.updateUser, async ({ params, body }, request) => {
    const enabling = typeof body === 'object' && 'isEnabled' in body;
    const { target } = await targetUser(app.ctx, request, params.id, enabling ? 'enable' : 'edit');
    if (enabling) return userDto(await setUserEnabled(app.ctx, target, parse(SetEnabledBodyStruct, body).isEnabled));
    // A§2: a user's details are edited only while the user is enabled (both portals' tables say so).
    if (!target.isEnabled) throw conflict(USER_MESSAGES.editDisabled);
    if (isCustomerRole(target.role)) return userDto(await updateCustomerUser(app.ctx, target, parse(CustomerUserBodyStruct, body)));
    return userDto(await updateStaffUser(app.ctx, target, parse(StaffUserBodyStruct, body)));
  });

  // Resend invite: a new single-use link; the previous unused one stops working.
  route(app, operations.resendInvite, async ({ params }, request) => {
    const { target } = await targetUser(app.ctx, request, params.id, 'invite');
    if (!target.isEnabled) throw conflict(USER_MESSAGES.inviteDisabled);
    await sendInvite(app.ctx, target);
  });

  // A§7 editor drive link (link rule; empty or null clears it).
  route(app, operations.setEditorAssetPath, async ({ params, body }, request) => {
    const { target } = await targetUser(app.ctx, request, params.id, 'edit', 'EDITOR');
    return userDto(await setEditorAssetsPath(app.ctx, target, body.path));
  });
}
