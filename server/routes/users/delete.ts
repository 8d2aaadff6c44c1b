import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { deleteUser } from '../../services/user-admin.ts';
import { targetUser } from './target.ts';

export default async function deleteUserRoutes(app: FastifyInstance) {
  /** Soft delete: the row stays for history, the user disappears from every list and lookup. */
  const remove = async (request: FastifyRequest, reply: FastifyReply, editorOnly: boolean) => {
    const { auth, target } = await targetUser(app.ctx, request, 'delete', editorOnly ? 'EDITOR' : undefined);
    await deleteUser(app.ctx, target);
    request.log.info({ userId: target.id, by: auth.user.id }, 'user deleted');
    return reply.code(204).send();
  };
  app.delete('/users/:id', (request, reply) => remove(request, reply, false));
  app.delete('/users/:id/editor', { config: { access: 'managers' } }, (request, reply) => remove(request, reply, true));
}
