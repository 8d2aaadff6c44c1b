import type { FastifyInstance } from 'fastify';
import { LoginBodyStruct } from '../../../src/domain/contract/auth.ts';
import { MESSAGES } from '../../../src/domain/messages.ts';
import { parse, unauthorized } from '../../http-error.ts';
import { usersRepo } from '../../repositories/users.ts';
import { guardFailures, perIpRouteLimit, requireHuman } from '../../services/abuse-guard.ts';
import { verifyAgainstDecoy, verifySecret } from '../../services/passwords.ts';

export default async function loginRoute(app: FastifyInstance) {
  app.post('/login', { config: perIpRouteLimit(app.ctx.config) }, async (request) => {
    const body = parse(LoginBodyStruct, request.body);
    const guard = await guardFailures(request, 'login', body.email, { accountWide: true });
    await requireHuman(request, body.code, guard.botCheckRequired);
    const user = await usersRepo(app.ctx.db).findByEmail(body.email);
    const ok = user?.passwordHash ? await verifySecret(body.password, user.passwordHash) : await verifyAgainstDecoy(body.password);
    if (!user || !ok || !user.isEnabled) {
      await guard.failed();
      throw unauthorized(MESSAGES.loginFailed);
    }
    await guard.succeeded();
    return { token: await app.ctx.tokens.sign({ userId: user.id, impersonatorId: null, sessionVersion: user.sessionVersion }), organizationId: user.organizationId };
  });
}
