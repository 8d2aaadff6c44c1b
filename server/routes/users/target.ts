import type { FastifyRequest } from 'fastify';
import type { RoleName } from '../../../src/domain/roles.ts';
import { decideUserAction, type UserAction } from '../../../src/domain/user-management.ts';
import type { AppContext } from '../../context.ts';
import type { UserRow } from '../../db/schema.ts';
import { HttpError, notFound } from '../../http-error.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import { usersRepo } from '../../repositories/users.ts';

/**
 * The caller and the user `id` names, once the caller may do `action` to that user
 * (src/domain/user-management.ts): 404 for a missing user or another organization's, 403 for
 * a role that may not. Deleted users do not exist.
 */
export async function targetUser(
  ctx: AppContext,
  request: FastifyRequest,
  id: number,
  action: UserAction,
  onlyRole?: RoleName,
): Promise<{ auth: AuthContext; target: UserRow }> {
  const { auth } = request;
  const target = await usersRepo(ctx.db).findById(id);
  // Routes for one role (users/{id}/editor, asset-path) do not know other users.
  if (!target || (onlyRole && target.role !== onlyRole)) throw notFound();
  const decision = decideUserAction(auth.user, target, action, auth.impersonatorId !== null);
  if (!decision.allowed) throw new HttpError(decision.status, decision.message);
  return { auth, target };
}
