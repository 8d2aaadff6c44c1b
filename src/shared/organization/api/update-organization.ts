import * as operations from '@/domain/contract/customers.ts';
import { call } from '@/lib/api-client.ts';

/** The fields PATCH organizations/{id} changes, exactly one at a time. */
export type OrganizationField = { state: 'APPROVED' } | { assetsLink: string | null } | { trackingCode: string | null } | { projectReviewPeriod: number };

/** A§7 PATCH organizations/{id}: the one client call (onboarding and the organization page). */
export function updateOrganization(id: number, field: OrganizationField) {
  return call(operations.updateOrganization, { params: { id }, body: field });
}
