import type { Updateable } from 'kysely';
import { businessToday } from '../../src/domain/business-calendar.ts';
import type { CreditDetail, OrganizationFields, UpdateCreditsBody, UpdateOrganizationBody } from '../../src/domain/contract/customers.ts';
import { ONBOARDING_COMPLETE, ORGANIZATION_MESSAGES, blankToNull, isOnboardingComplete } from '../../src/domain/organization-rules.ts';
import { isSubscriptionActive, nextRenewDate } from '../../src/domain/subscription.ts';
import type { Session } from '../../src/domain/contract/auth.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/connect.ts';
import type { OrganizationRow, OrganizationsTable, UserRow } from '../db/schema.ts';
import { badRequest, conflict, forbidden, notFound } from '../http-error.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { MESSAGES } from '../../src/domain/messages.ts';
import { impersonationsRepo } from '../repositories/impersonations.ts';
import { organizationAdminRepo } from '../repositories/organization-admin.ts';
import { organizationsRepo } from '../repositories/organizations.ts';
import { usersRepo } from '../repositories/users.ts';
import { creditDetailDto } from './organization-view.ts';
import { tokenExpiry } from './tokens.ts';

/** The live organization `id`; 404 when there is none (deleted ones included). */
export async function requireOrganization(db: Db, id: number): Promise<OrganizationRow> {
  const organization = await organizationsRepo(db).findById(id);
  if (!organization) throw notFound();
  return organization;
}

/** A§7 PATCH organizations/{id}: one field at a time — onboarding complete, assets link, tracking code or review period. */
export async function updateOrganizationField(db: Db, organization: OrganizationRow, body: UpdateOrganizationBody): Promise<OrganizationFields> {
  const keys = Object.keys(body).filter((key) => body[key as keyof typeof body] !== undefined);
  if (keys.length !== 1) throw badRequest(ORGANIZATION_MESSAGES.oneField);
  const changes: Updateable<OrganizationsTable> = {};
  if (body.state !== undefined) {
    if (isOnboardingComplete(organization.statusId)) throw conflict(ORGANIZATION_MESSAGES.alreadyComplete);
    Object.assign(changes, { statusId: ONBOARDING_COMPLETE, state: body.state });
  } else if (body.assetsLink !== undefined) {
    changes.assetsLink = blankToNull(body.assetsLink);
  } else if (body.trackingCode !== undefined) {
    if (!isSubscriptionActive(organization.renewableAt?.toISOString() ?? null, organization.isCancelled)) {
      throw conflict(ORGANIZATION_MESSAGES.trackingNeedsSubscription, { fields: { trackingCode: ORGANIZATION_MESSAGES.trackingNeedsSubscription } });
    }
    changes.trackingCode = blankToNull(body.trackingCode);
  } else if (body.projectReviewPeriod !== undefined) {
    changes.projectReviewPeriod = body.projectReviewPeriod;
  }
  await organizationAdminRepo(db).update(organization.id, changes);
  const updated = await organizationsRepo(db).findById(organization.id);
  return {
    id: organization.id,
    statusId: updated!.statusId,
    state: updated!.state,
    assetsLink: updated!.assetsLink,
    trackingCode: updated!.trackingCode,
    projectReviewPeriod: updated!.projectReviewPeriod,
  };
}

/** DELETE organizations/{id}: the organization and its users go (soft delete); 404 when there is none. */
export async function deleteOrganization(db: Db, id: number, now = new Date()): Promise<void> {
  await requireOrganization(db, id);
  await organizationAdminRepo(db).softDelete(id, now);
}

/** A§3 credits of the organization (GET and PUT organizations/{id}/credits); 404 when there is none. */
export async function organizationCredits(db: Db, id: number): Promise<CreditDetail> {
  const organizations = organizationsRepo(db);
  const organization = await organizations.findById(id);
  const credits = await organizations.credits(id);
  if (!organization || !credits) throw notFound();
  return creditDetailDto(organization, credits);
}

/**
 * A§7 PUT organizations/{id}/credits: the credits plan and the storage quota, never below the
 * credits already used (400 against `current`, as the caller read it; 409 when credits were
 * used meanwhile). Answers the credits as saved.
 */
export async function updateCredits(db: Db, current: CreditDetail, body: UpdateCreditsBody, today = businessToday()): Promise<CreditDetail> {
  const { id } = current;
  if (body.endDate < body.startDate) throw badRequest(ORGANIZATION_MESSAGES.endBeforeStart, { fields: { endDate: ORGANIZATION_MESSAGES.endBeforeStart } });
  if (body.credits < current.usedCredits) {
    const message = ORGANIZATION_MESSAGES.creditsBelowUsed(current.usedCredits);
    throw badRequest(message, { fields: { credits: message } });
  }
  const plan = { startDate: body.startDate, endDate: body.endDate, intervalMonths: body.interval, renewable: body.renewable };
  const refused = await organizationAdminRepo(db).updateCredits(
    id,
    { ...plan, activeCredits: body.credits, creditsPerInterval: body.creditsPerInterval, renewDate: nextRenewDate(plan, today) },
    body.storage,
  );
  // Credits were used between the read above and the write: the same rule, now a conflict.
  if (refused) {
    const message = ORGANIZATION_MESSAGES.creditsBelowUsed(refused.usedCredits);
    throw conflict(message, { fields: { credits: message } });
  }
  return organizationCredits(db, id);
}

/**
 * A§2 Log In As: a session for the organization's enabled owner that names `admin` as the
 * impersonator (recorded); 404 without the organization, 409 without an owner to sign in as.
 */
export async function signInAsOwner(ctx: AppContext, admin: UserRow, id: number, clientAddress: string | null = null): Promise<Session & { ownerId: number }> {
  await requireOrganization(ctx.db, id);
  const ownerRow = await organizationAdminRepo(ctx.db).row(id);
  const owner = ownerRow?.ownerId ? await usersRepo(ctx.db).findById(ownerRow.ownerId) : undefined;
  if (!owner?.isEnabled) throw conflict(ORGANIZATION_MESSAGES.noOwner);
  // Issue 36 item 10: the session goes on the trail (never its token); the token names its row.
  const trail = impersonationsRepo(ctx.db);
  const impersonationId = await trail.start({ adminId: admin.id, organizationId: id, customerUserId: owner.id, clientAddress });
  const token = await ctx.tokens.sign({
    userId: owner.id,
    impersonatorId: admin.id,
    sessionVersion: owner.sessionVersion,
    impersonatorSessionVersion: admin.sessionVersion,
    impersonationId,
  });
  await trail.setExpiry(impersonationId, tokenExpiry(token));
  return { token, organizationId: id, ownerId: owner.id };
}

/**
 * Step 1 of registration (C§2): the new owner names the organization. 409 when the name is
 * taken (a race of two with the same name too) or the owner already has one.
 */
export async function createOrganization(db: Db, user: UserRow, name: string): Promise<{ id: number }> {
  if (user.role !== 'OWNER') throw forbidden();
  if (user.organizationId !== null) throw conflict(MESSAGES.alreadyInOrganization);
  const organizations = organizationsRepo(db);
  const exists = () => conflict(MESSAGES.organizationExists, { fields: { name: MESSAGES.organizationExists } });
  if (await organizations.nameTaken(name)) throw exists();
  const organization = await organizations.createWithOwner(name, user.id).catch((error: unknown) => {
    throw isUniqueViolation(error) ? exists() : error;
  });
  // Another request of the same owner created one meanwhile.
  if (!organization) throw conflict(MESSAGES.alreadyInOrganization);
  return { id: organization.id };
}
