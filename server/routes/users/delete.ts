import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { USER_MESSAGES } from '../../../src/domain/user-management.ts';
import { forbidden } from '../../http-error.ts';
import { userAdminRepo } from '../../repositories/user-admin.ts';
import { requireStaff } from '../../services/staff-access.ts';
import { targetUser } from './target.ts';

export default async function deleteUserRoutes(app: FastifyInstance) {
  /** Soft delete: the row stays for history, the user disappears from every list and lookup. */
  const remove = async (request: FastifyRequest, reply: FastifyReply, editorOnly: boolean) => {
    if (editorOnly) await requireStaff(request, { managers: true });
    const { auth, target } = await targetUser(app.ctx, request, 'delete', editorOnly ? 'EDITOR' : undefined);
    const users = userAdminRepo(app.ctx.db);
    if (target.role === 'EDITOR' && (await users.editorHasProjects(target.id))) throw forbidden(USER_MESSAGES.editorHasProjects);
    await users.softDelete(target.id, new Date());
    request.log.info({ userId: target.id, by: auth.user.id }, 'user deleted');
    return reply.code(204).send();
  };
  app.delete('/users/:id', (request, reply) => remove(request, reply, false));
  app.delete('/users/:id/editor', (request, reply) => remove(request, reply, true));
}
