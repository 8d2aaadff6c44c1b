import type { CreditDetail, OrganizationRow, StaffOrganization } from '../../src/domain/contract/customers.ts';
import type { Organization } from '../../src/domain/contract/organizations.ts';
import { businessToday } from '../../src/domain/business-calendar.ts';
import { creditStatus } from '../../src/domain/credits.ts';
import { subscriptionStatus } from '../../src/domain/subscription.ts';
import type { Db } from '../db/connect.ts';
import type { CreditsRow, OrganizationRow as OrganizationTableRow } from '../db/schema.ts';
import { organizationAdminRepo, type OrganizationListRow } from '../repositories/organization-admin.ts';
import { organizationsRepo } from '../repositories/organizations.ts';
import { isStaffRole } from '../../src/domain/roles.ts';
import { notFound } from '../http-error.ts';
import type { AuthContext } from '../plugins/auth.ts';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** A row of the staff lists (A§2 customers and onboarding). */
export function organizationRowDto(row: OrganizationListRow): OrganizationRow {
  const renewableAt = iso(row.renewableAt);
  return {
    id: row.id,
    name: row.name,
    storage: row.storageTb,
    usedSpace: row.usedSpace,
    owner:
      row.ownerId === null
        ? null
        : { id: row.ownerId, firstName: row.ownerFirstName ?? '', lastName: row.ownerLastName ?? '', email: row.ownerEmail ?? '', phone: row.ownerPhone },
    statusId: row.statusId,
    state: row.state,
    assetsLink: row.assetsLink,
    trackingCode: row.trackingCode,
    renewableAt,
    isCancelled: row.isCancelled,
    subscriptionStatus: subscriptionStatus(renewableAt, row.isCancelled),
    createdAt: row.createdAt.toISOString(),
    projectReviewPeriod: row.projectReviewPeriod,
    activeCredits: row.activeCredits ?? 0,
    usedCredits: row.usedCredits ?? 0,
    creditsPerInterval: row.creditsPerInterval ?? 0,
    interval: row.intervalMonths ?? 0,
    startDate: row.startDate,
    endDate: row.endDate,
    renewDate: row.renewDate,
    kitOrdered: row.kitOrdered,
    kitType: row.kitType,
    kitOrderedAt: row.kitOrderedAt,
    planName: row.planName ?? null,
  };
}

/** GET organizations/{id} for staff: the customer answer, A§3's organization fields and the report figures. */
export async function staffOrganizationDto(db: Db, base: Organization): Promise<StaffOrganization | null> {
  const repo = organizationAdminRepo(db);
  const row = await repo.row(base.id);
  if (!row) return null;
  const { id: _id, name: _name, storage: _storage, usedSpace: _usedSpace, ...staffFields } = organizationRowDto(row);
  return { ...base, ...staffFields, ...(await repo.report(base.id)) };
}

/** A§3 credits, as GET and PUT organizations/{id}/credits answer them. */
export function creditDetailDto(organization: OrganizationTableRow, credits: CreditsRow): CreditDetail {
  return {
    id: organization.id,
    startDate: credits.startDate,
    endDate: credits.endDate,
    renewDate: credits.renewDate,
    renewable: credits.renewable,
    interval: credits.intervalMonths,
    creditsPerInterval: credits.creditsPerInterval,
    activeCredits: credits.activeCredits,
    usedCredits: credits.usedCredits,
    storage: organization.storageTb,
    status: creditStatus(credits.startDate, credits.endDate, businessToday()),
  };
}

/**
 * GET organizations/{id}: the organization with its credits for its members; staff (signed in
 * as themselves) also get A§3's fields. Who may see it is the route's `organizationParam`.
 */
export async function organizationFor(db: Db, auth: AuthContext, id: number): Promise<Organization | StaffOrganization> {
  const { user, impersonatorId } = auth;
  const organizations = organizationsRepo(db);
  const organization = await organizations.findById(id);
  const credits = await organizations.credits(id);
  if (!organization || !credits) throw notFound();
  const { usedCredits, activeCredits, startDate, endDate, creditsPerInterval, interval, renewable, renewDate, status } = creditDetailDto(organization, credits);
  const answer: Organization = {
    id: organization.id,
    name: organization.name,
    credits: { startDate, endDate, activeCredits, usedCredits, creditsPerInterval, interval, renewable, renewDate, status },
    storage: organization.storageTb,
    usedSpace: organization.usedSpace,
    status: { id: organization.statusId },
  };
  if (!isStaffRole(user.role) || impersonatorId !== null) return answer;
  return (await staffOrganizationDto(db, answer)) ?? answer;
}
