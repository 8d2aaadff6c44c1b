import type { CustomerUserBody, StaffUserBody, TrialUser, User } from '../../src/domain/contract/users.ts';
import { INVITE_CODE_LIFETIME_DAYS } from '../../src/domain/constants.ts';
import { MESSAGES } from '../../src/domain/messages.ts';
import { blankToNull } from '../../src/domain/organization-rules.ts';
import type { RoleName } from '../../src/domain/roles.ts';
import { TRIAL_DAYS, USER_MESSAGES, trialRegistrationLink } from '../../src/domain/user-management.ts';
import type { AppContext } from '../context.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { NewUser, UserRow, UserUpdate } from '../db/schema.ts';
import { badRequest, conflict, forbidden } from '../http-error.ts';
import { organizationsRepo } from '../repositories/organizations.ts';
import { userAdminRepo } from '../repositories/user-admin.ts';
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

/** C§7: the owner adds a USER to their organization; 400 when the body names another organization. Invited at once. */
export async function inviteCustomerUser(ctx: AppContext, organizationId: number, body: CustomerUserBody): Promise<UserRow> {
  if (body.organizationId != null && body.organizationId !== organizationId) {
    throw badRequest(USER_MESSAGES.otherOrganization, { fields: { organizationId: USER_MESSAGES.otherOrganization } });
  }
  const created = await createInvitedUser(ctx, {
    email: body.email.trim(),
    firstName: body.firstName.trim(),
    lastName: body.lastName.trim(),
    phone: body.phone,
    role: 'USER',
    organizationId,
    profilePictureUrl: null,
  });
  await sendInvite(ctx, created);
  return created;
}

/** A§7: staff add an EDITOR (or, for a superadmin, an ADMIN); invited at once. */
export async function inviteStaffUser(ctx: AppContext, role: RoleName, body: StaffUserBody): Promise<UserRow> {
  const created = await createInvitedUser(ctx, {
    email: body.email.trim(),
    firstName: body.firstName.trim(),
    lastName: body.lastName.trim(),
    phone: blankToNull(body.phone),
    role,
    organizationId: null,
    profilePictureUrl: blankToNull(body.profilePictureUrl),
  });
  await sendInvite(ctx, created);
  return created;
}

/** Saves `changes` (the e-mail free first); disabling also ends the user's sessions. Answers the user as saved. */
async function saveUser(ctx: AppContext, target: UserRow, changes: UserUpdate): Promise<UserRow> {
  const users = usersRepo(ctx.db);
  if (changes.email) await assertEmailFree(ctx, changes.email, target.id);
  // Disabling ends the user's sessions for good: re-enabling later does not revive old tokens.
  const write = changes.isEnabled === false ? users.updateEndingSessions(target.id, changes) : users.update(target.id, changes);
  await write.catch((error: unknown) => {
    throw isUniqueViolation(error) ? emailUsed() : error;
  });
  return (await users.findById(target.id))!;
}

/** PATCH users/{id} { isEnabled }. */
export async function setUserEnabled(ctx: AppContext, target: UserRow, isEnabled: boolean): Promise<UserRow> {
  return saveUser(ctx, target, { isEnabled });
}

/** PATCH users/{id}: a customer's details; 400 when the body names another organization. */
export async function updateCustomerUser(ctx: AppContext, target: UserRow, details: CustomerUserBody): Promise<UserRow> {
  if (details.organizationId != null && details.organizationId !== target.organizationId) {
    throw badRequest(USER_MESSAGES.otherOrganization, { fields: { organizationId: USER_MESSAGES.otherOrganization } });
  }
  return saveUser(ctx, target, { email: details.email.trim(), firstName: details.firstName.trim(), lastName: details.lastName.trim(), phone: details.phone });
}

/** PATCH users/{id}: a staff member's details (phone and picture only when sent). */
export async function updateStaffUser(ctx: AppContext, target: UserRow, details: StaffUserBody): Promise<UserRow> {
  const changes: UserUpdate = { email: details.email.trim(), firstName: details.firstName.trim(), lastName: details.lastName.trim() };
  if (details.phone !== undefined) changes.phone = blankToNull(details.phone);
  if (details.profilePictureUrl !== undefined) changes.profilePictureUrl = blankToNull(details.profilePictureUrl);
  return saveUser(ctx, target, changes);
}

/** A§7 an editor's drive link (the link rule; empty or null clears it). */
export async function setEditorAssetsPath(ctx: AppContext, target: UserRow, path: string | null | undefined): Promise<UserRow> {
  const users = usersRepo(ctx.db);
  await users.update(target.id, { assetsPath: blankToNull(path) });
  return (await users.findById(target.id))!;
}

/** Soft delete: the row stays for history, the user disappears from every list and lookup. A§8: not an editor with live projects (403). */
export async function deleteUser(ctx: AppContext, target: UserRow, now = new Date()): Promise<void> {
  const users = userAdminRepo(ctx.db);
  if (target.role === 'EDITOR' && (await users.editorHasProjects(target.id))) throw forbidden(USER_MESSAGES.editorHasProjects);
  await users.softDelete(target.id, now);
}

/** A§2 trial users: owners whose organization has no subscription yet (docs/decisions.md), with the end of their trial. */
export async function trialUsers(ctx: AppContext, start: number, limit: number): Promise<TrialUser[]> {
  const rows = await userAdminRepo(ctx.db).trialOwners(start, limit);
  return rows.map((row) => ({
    id: row.id,
    organizationId: row.organizationId,
    organizationName: row.organizationName,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    codeExpiration: new Date(row.organizationCreatedAt.getTime() + TRIAL_DAYS * 86_400_000).toISOString(),
    link: trialRegistrationLink(ctx.config.publicUrl, row.email),
  }));
}
