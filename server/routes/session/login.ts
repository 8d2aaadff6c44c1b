import type { FastifyInstance } from 'fastify';
import { LoginBodyStruct } from '../../../src/domain/contract/auth.ts';
import { MESSAGES } from '../../../src/domain/messages.ts';
import { parse, unauthorized } from '../../http-error.ts';
import { usersRepo } from '../../repositories/users.ts';
import { limitAttempts, requireHuman } from '../../services/abuse-guard.ts';
import { verifyAgainstDecoy, verifySecret } from '../../services/passwords.ts';

export default async function loginRoute(app: FastifyInstance) {
  app.post('/login', async (request) => {
    const body = parse(LoginBodyStruct, request.body);
    limitAttempts(request, 'login', body.email);
    await requireHuman(request, body.code);
    const user = await usersRepo(app.ctx.db).findByEmail(body.email);
    const ok = user?.passwordHash ? await verifySecret(body.password, user.passwordHash) : await verifyAgainstDecoy(body.password);
    if (!user || !ok || !user.isEnabled) throw unauthorized(MESSAGES.loginFailed);
    return { token: await app.ctx.tokens.sign({ userId: user.id, impersonatorId: null }), organizationId: user.organizationId };
  });
}
