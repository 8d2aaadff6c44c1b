import type { LoginBody, RegisterBody, Session } from '../../src/domain/contract/auth.ts';
import { MESSAGES } from '../../src/domain/messages.ts';
import type { AppContext } from '../context.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { conflict, unauthorized } from '../http-error.ts';
import { usersRepo } from '../repositories/users.ts';
import { guardFailures, requireHuman } from './abuse-guard.ts';
import { hashSecret, verifyAgainstDecoy, verifySecret } from './passwords.ts';

/**
 * POST login from address `ip`: a session for an enabled user whose password matches. Failures
 * are counted per account (abuse-guard.ts) and answer one message whatever went wrong.
 */
export async function signIn(ctx: AppContext, ip: string, body: LoginBody): Promise<Session> {
  const guard = await guardFailures(ctx, ip, 'login', body.email, { accountWide: true });
  await requireHuman(ctx, body.code, guard.botCheckRequired);
  const user = await usersRepo(ctx.db).findByEmail(body.email);
  const ok = user?.passwordHash ? await verifySecret(body.password, user.passwordHash) : await verifyAgainstDecoy(body.password);
  if (!user || !ok || !user.isEnabled) {
    await guard.failed();
    throw unauthorized(MESSAGES.loginFailed);
  }
  await guard.succeeded();
  return { token: await ctx.tokens.sign({ userId: user.id, impersonatorId: null, sessionVersion: user.sessionVersion }), organizationId: user.organizationId };
}

/** POST register: a new OWNER without an organization yet (step 1 names it), signed in at once. */
export async function registerOwner(ctx: AppContext, body: RegisterBody): Promise<Session> {
  await requireHuman(ctx, body.code);
  const users = usersRepo(ctx.db);
  const taken = () => conflict(MESSAGES.emailAlreadyRegistered, { fields: { email: MESSAGES.emailAlreadyRegistered } });
  if (await users.findByEmail(body.email)) throw taken();
  const user = await users
    .create({
      email: body.email,
      passwordHash: await hashSecret(body.password),
      firstName: body.firstName.trim(),
      lastName: body.lastName.trim(),
      phone: body.phone,
      role: 'OWNER',
      organizationId: null,
      profilePictureUrl: null,
      assetsPath: null,
      deletedAt: null,
    })
    .catch((error: unknown) => {
      // Two registrations racing for one e-mail: the unique index decides.
      throw isUniqueViolation(error) ? taken() : error;
    });
  return { token: await ctx.tokens.sign({ userId: user.id, impersonatorId: null, sessionVersion: user.sessionVersion }), organizationId: null };
}
