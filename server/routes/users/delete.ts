import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as operations from '../../../src/domain/contract/users.ts';
import { deleteUser } from '../../services/user-admin.ts';
import { route } from '../operation-route.ts';
import { targetUser } from './target.ts';

export default async function deleteUserRoutes(app: FastifyInstance) {
  /** Soft delete: the row stays for history, the user disappears from every list and lookup. */
  const remove = async (request: FastifyRequest, id: number, editorOnly: boolean) => {
    const { auth, target } = await targetUser(app.ctx, request, id, 'delete', editorOnly ? 'EDITOR' : undefined);
    await deleteUser(app.ctx, target);
    request.log.info({ userId: target.id, by: auth.user.id }, 'user deleted');
  };
  route(app, operations.deleteUser, async ({ params }, request) => remove(request, params.id, false));
  route(app, operations.deleteEditor, async ({ params }, request) => remove(request, params.id, true));
}
