import type { FastifyBaseLogger } from 'fastify';
import type { RecoverCompleteBody, Session } from '../../src/domain/contract/auth.ts';
import { RECOVERY_CODE_LIFETIME_MINUTES } from '../../src/domain/constants.ts';
import { MESSAGES, RECOVERY_CODE_ERROR } from '../../src/domain/messages.ts';
import type { AppContext } from '../context.ts';
import { badRequest } from '../http-error.ts';
import { usersRepo } from '../repositories/users.ts';
import { accountBudgetAllows, guardFailures } from './abuse-guard.ts';
import { consumeAccessCode, issueAccessLink } from './access-links.ts';
import { recoveryMail } from './mail-templates.ts';
import { hashSecret } from './passwords.ts';

/** Looks the account up and mails its recovery link; runs after the 204 has been sent. */
export async function sendRecoveryMail(ctx: AppContext, log: FastifyBaseLogger, email: string): Promise<void> {
  const user = await usersRepo(ctx.db).findByEmail(email);
  if (!user?.isEnabled) return;
  if (!(await accountBudgetAllows(ctx.limiter, 'recover', user.email, ctx.config.rateLimit.perEmail))) {
    log.warn({ userId: user.id }, 'recovery mail not sent: this account had its share of recovery mails in this window');
    return;
  }
  const link = await issueAccessLink(ctx, user, 'recovery', RECOVERY_CODE_LIFETIME_MINUTES * 60_000);
  await ctx.mailer.send(recoveryMail(user.email, link));
}

/**
 * Completes a recovery or an invitation from address `ip` (both links lead to /change-password):
 * a valid code sets the new password, ends every session signed with the old one (issue 9) and
 * signs this client in with the new session version.
 */
export async function completeRecovery(ctx: AppContext, ip: string, body: RecoverCompleteBody): Promise<Session> {
  // Codes carry 256 random bits: the per-address count is enough, and an account-wide one
  // would let anyone block the owner's own link.
  const guard = await guardFailures(ctx, ip, 'recover-complete', body.email, { accountWide: false });
  const users = usersRepo(ctx.db);
  const user = await users.findByEmail(body.email);
  const valid = user?.isEnabled && (await consumeAccessCode(ctx, user.id, body.recoveryCode));
  if (!user || !valid) {
    await guard.failed();
    throw badRequest(MESSAGES.recoveryCodeInvalid, { code: RECOVERY_CODE_ERROR });
  }
  await guard.succeeded();
  const sessionVersion = await users.updateEndingSessions(user.id, { passwordHash: await hashSecret(body.newPassword) });
  return { token: await ctx.tokens.sign({ userId: user.id, impersonatorId: null, sessionVersion }), organizationId: user.organizationId };
}
