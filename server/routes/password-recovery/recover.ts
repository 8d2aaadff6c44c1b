import type { FastifyInstance } from 'fastify';
import { RecoverBodyStruct, RecoverCompleteBodyStruct } from '../../../src/domain/contract/auth.ts';
import { RECOVERY_CODE_LIFETIME_MINUTES } from '../../../src/domain/constants.ts';
import { MESSAGES, RECOVERY_CODE_ERROR } from '../../../src/domain/messages.ts';
import { badRequest, parse } from '../../http-error.ts';
import { usersRepo } from '../../repositories/users.ts';
import { limitAttempts } from '../../services/abuse-guard.ts';
import { consumeAccessCode, issueAccessLink } from '../../services/access-links.ts';
import { recoveryMail } from '../../services/mail-templates.ts';
import { hashSecret } from '../../services/passwords.ts';

export default async function passwordRecoveryRoutes(app: FastifyInstance) {
  // Always 204, whether or not the e-mail has an account, so nothing about accounts leaks.
  app.put('/password-recover', async (request, reply) => {
    const { email } = parse(RecoverBodyStruct, request.body);
    limitAttempts(request, 'recover', email);
    const user = await usersRepo(app.ctx.db).findByEmail(email);
    if (user?.isEnabled) {
      const link = await issueAccessLink(app.ctx, user, 'recovery', RECOVERY_CODE_LIFETIME_MINUTES * 60_000);
      await app.ctx.mailer.send(recoveryMail(user.email, link));
    }
    reply.code(204);
  });

  // Completes a recovery or an invitation: both links lead to /change-password.
  app.put('/password-recover-complete', async (request) => {
    const body = parse(RecoverCompleteBodyStruct, request.body);
    limitAttempts(request, 'recover-complete', body.email);
    const users = usersRepo(app.ctx.db);
    const user = await users.findByEmail(body.email);
    const valid = user?.isEnabled && (await consumeAccessCode(app.ctx, user.id, body.recoveryCode));
    if (!user || !valid) throw badRequest(MESSAGES.recoveryCodeInvalid, { code: RECOVERY_CODE_ERROR });
    await users.update(user.id, { passwordHash: await hashSecret(body.newPassword) });
    return { token: await app.ctx.tokens.sign({ userId: user.id, impersonatorId: null }), organizationId: user.organizationId };
  });
}
