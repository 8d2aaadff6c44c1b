import type { FastifyInstance } from 'fastify';
import type { Me } from '../../../src/domain/contract/me.ts';
import { me } from '../../services/me.ts';

export default async function meRoutes(app: FastifyInstance) {
  app.get('/me', async (request): Promise<Me> => {
    return me(app.ctx, request.auth);
  });

  // A new expiry for the same session: the sign-in time and the session versions stay, so a
  // refresh neither outlives the session's absolute lifetime nor survives a revocation.
  app.put('/me/refresh-token', async (request) => {
    const { auth, session: claims } = request;
    return { token: await app.ctx.tokens.sign({ ...claims, userId: auth.user.id }) };
  });
}
