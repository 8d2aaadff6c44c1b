import type { FastifyInstance } from 'fastify';
import { RecoverBodyStruct, RecoverCompleteBodyStruct } from '../../../src/domain/contract/auth.ts';
import { RECOVERY_CODE_LIFETIME_MINUTES } from '../../../src/domain/constants.ts';
import { MESSAGES, RECOVERY_CODE_ERROR } from '../../../src/domain/messages.ts';
import { badRequest, parse } from '../../http-error.ts';
import { usersRepo } from '../../repositories/users.ts';
import { accountBudgetAllows, guardFailures, limitPerAccountAndIp, perIpRouteLimit } from '../../services/abuse-guard.ts';
import { consumeAccessCode, issueAccessLink } from '../../services/access-links.ts';
import { recoveryMail } from '../../services/mail-templates.ts';
import { hashSecret } from '../../services/passwords.ts';

/** Looks the account up and mails its recovery link; runs after the 204 has been sent. */
async function sendRecoveryMail(app: FastifyInstance, email: string): Promise<void> {
  const { ctx } = app;
  const user = await usersRepo(ctx.db).findByEmail(email);
  if (!user?.isEnabled) return;
  if (!(await accountBudgetAllows(ctx.limiter, 'recover', user.email, ctx.config.rateLimit.perEmail))) {
    app.log.warn({ userId: user.id }, 'recovery mail not sent: this account had its share of recovery mails in this window');
    return;
  }
  const link = await issueAccessLink(ctx, user, 'recovery', RECOVERY_CODE_LIFETIME_MINUTES * 60_000);
  await ctx.mailer.send(recoveryMail(user.email, link));
}

export default async function passwordRecoveryRoutes(app: FastifyInstance) {
  const limit = { config: perIpRouteLimit(app.ctx.config) };

  // Always 204, whether or not the e-mail has an account, so nothing about accounts leaks:
  // neither the answer nor its timing (the lookup and the mail happen after answering).
  app.put('/password-recover', limit, async (request, reply) => {
    const { email } = parse(RecoverBodyStruct, request.body);
    await limitPerAccountAndIp(request, 'recover', email);
    app.background.run('recovery mail', () => sendRecoveryMail(app, email));
    reply.code(204);
  });

  // Completes a recovery or an invitation: both links lead to /change-password.
  app.put('/password-recover-complete', limit, async (request) => {
    const body = parse(RecoverCompleteBodyStruct, request.body);
    // Codes carry 256 random bits: the per-address count is enough, and an account-wide one
    // would let anyone block the owner's own link.
    const guard = await guardFailures(request, 'recover-complete', body.email, { accountWide: false });
    const users = usersRepo(app.ctx.db);
    const user = await users.findByEmail(body.email);
    const valid = user?.isEnabled && (await consumeAccessCode(app.ctx, user.id, body.recoveryCode));
    if (!user || !valid) {
      await guard.failed();
      throw badRequest(MESSAGES.recoveryCodeInvalid, { code: RECOVERY_CODE_ERROR });
    }
    await guard.succeeded();
    // A new password ends every session signed with the old one (issue 9); this client gets a
    // token of the new version and stays signed in.
    const sessionVersion = await users.updateEndingSessions(user.id, { passwordHash: await hashSecret(body.newPassword) });
    return { token: await app.ctx.tokens.sign({ userId: user.id, impersonatorId: null, sessionVersion }), organizationId: user.organizationId };
  });
}
