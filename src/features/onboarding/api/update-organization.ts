import { OrganizationFieldsStruct } from '@/domain/contract/customers.ts';
import { api } from '@/lib/api-client.ts';

export type OrganizationField = { state: 'APPROVED' } | { assetsLink: string | null } | { trackingCode: string | null };

/** A§7 PATCH organizations/{id}: one field at a time. */
export function updateOrganization(id: number, field: OrganizationField) {
  return api('PATCH', `/organizations/${id}`, { body: field, struct: OrganizationFieldsStruct });
}
