import { StaffOrganizationStruct } from '@/domain/contract/customers.ts';
import { api } from '@/lib/api-client.ts';

/** A§7 organization detail as staff see it (A§3 fields and the report figures). */
export function getOrganization(id: number) {
  return api('GET', `/organizations/${id}`, { struct: StaffOrganizationStruct });
}
