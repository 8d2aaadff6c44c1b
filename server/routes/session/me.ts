import type { FastifyInstance } from 'fastify';
import type { Me } from '../../../src/domain/contract/me.ts';
import { authenticate, authenticateSession } from '../../plugins/auth.ts';
import { organizationsRepo } from '../../repositories/organizations.ts';

export default async function meRoutes(app: FastifyInstance) {
  app.get('/me', async (request): Promise<Me> => {
    const { user, impersonatorId } = await authenticate(request);
    const organization = user.organizationId ? await organizationsRepo(app.ctx.db).findById(user.organizationId) : undefined;
    return {
      id: user.id,
      email: user.email,
      role: { name: user.role },
      firstName: user.firstName,
      lastName: user.lastName,
      name: `${user.firstName} ${user.lastName}`.trim(),
      organizationId: organization?.id ?? null,
      organizationName: organization?.name ?? null,
      profilePictureUrl: user.profilePictureUrl,
      impersonatedBy: impersonatorId,
    };
  });

  // A new expiry for the same session: the sign-in time and the session versions stay, so a
  // refresh neither outlives the session's absolute lifetime nor survives a revocation.
  app.put('/me/refresh-token', async (request) => {
    const { auth, claims } = await authenticateSession(request);
    return { token: await app.ctx.tokens.sign({ ...claims, userId: auth.user.id }) };
  });
}
