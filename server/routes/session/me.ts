import type { FastifyInstance } from 'fastify';
import * as auth from '../../../src/domain/contract/auth.ts';
import * as operations from '../../../src/domain/contract/me.ts';
import { impersonationsRepo } from '../../repositories/impersonations.ts';
import { me } from '../../services/me.ts';
import { tokenExpiry } from '../../services/tokens.ts';
import { route } from '../operation-route.ts';

export default async function meRoutes(app: FastifyInstance) {
  route(app, operations.getMe, async (_, request) => me(app.ctx, request.auth));

  // A new expiry for the same session: the sign-in time and the session versions stay, so a
  // refresh neither outlives the session's absolute lifetime nor survives a revocation.
  route(app, auth.refreshToken, async (_, request) => {
    const { auth: caller, session: claims } = request;
    const token = await app.ctx.tokens.sign({ ...claims, userId: caller.user.id });
    // The Log In As trail keeps the session's expiry (issue 36 item 10).
    if (claims.impersonationId !== null) await impersonationsRepo(app.ctx.db).setExpiry(claims.impersonationId, tokenExpiry(token));
    return { token };
  });
}
