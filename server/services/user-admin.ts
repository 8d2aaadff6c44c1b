import type { User } from '../../src/domain/contract/users.ts';
import { INVITE_CODE_LIFETIME_DAYS } from '../../src/domain/constants.ts';
import { MESSAGES } from '../../src/domain/messages.ts';
import type { AppContext } from '../context.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { NewUser, UserRow } from '../db/schema.ts';
import { conflict } from '../http-error.ts';
import { organizationsRepo } from '../repositories/organizations.ts';
import { usersRepo } from '../repositories/users.ts';
import { issueAccessLink } from './access-links.ts';
import { inviteMail, staffInviteMail } from './mail-templates.ts';

/** A user as the contract describes it (A§3: isEnabled is 0 or 1). */
export function userDto(user: UserRow): User {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    phone: user.phone,
    profilePictureUrl: user.profilePictureUrl,
    assetsPath: user.assetsPath,
    isEnabled: user.isEnabled ? 1 : 0,
    hasPassword: user.passwordHash !== null,
    deletedAt: user.deletedAt?.toISOString() ?? null,
    role: { name: user.role },
    organizationId: user.organizationId,
    createdAt: user.createdAt.toISOString(),
  };
}

/** C§8: the used-e-mail answer, on the e-mail field. */
export const emailUsed = () => conflict(MESSAGES.userEmailUsed, { fields: { email: MESSAGES.userEmailUsed } });

/** 409 when another live user has `email` (case ignored). */
export async function assertEmailFree(ctx: AppContext, email: string, exceptUserId?: number): Promise<void> {
  const other = await usersRepo(ctx.db).findByEmail(email);
  if (other && other.id !== exceptUserId) throw emailUsed();
}

/** Creates an invited user (no password yet); two requests racing for one e-mail get 409 from the unique index. */
export async function createInvitedUser(ctx: AppContext, values: Omit<NewUser, 'passwordHash' | 'assetsPath' | 'deletedAt'>): Promise<UserRow> {
  await assertEmailFree(ctx, values.email);
  return usersRepo(ctx.db)
    .create({ ...values, passwordHash: null, assetsPath: null, deletedAt: null })
    .catch((error: unknown) => {
      throw isUniqueViolation(error) ? emailUsed() : error;
    });
}

/** E-mails a fresh invitation link (/change-password?code=…&email=…); older unused links stop working. */
export async function sendInvite(ctx: AppContext, user: UserRow): Promise<void> {
  const link = await issueAccessLink(ctx, user, 'invite', INVITE_CODE_LIFETIME_DAYS * 86_400_000);
  const organization = user.organizationId ? await organizationsRepo(ctx.db).findById(user.organizationId) : undefined;
  await ctx.mailer.send(organization ? inviteMail(user.email, organization.name, link) : staffInviteMail(user.email, user.role, link));
}
