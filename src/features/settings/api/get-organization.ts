import { OrganizationStruct } from '@/domain/contract/organizations.ts';
import { api } from '@/lib/api-client.ts';

export function getOrganization(organizationId: number) {
  return api('GET', `/organizations/${organizationId}`, { struct: OrganizationStruct });
}
