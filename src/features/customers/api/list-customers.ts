import { ORGANIZATIONS_PAGE_SIZE, type OrganizationSort } from '@/domain/contract/customers.ts';
import { listOrganizations } from '@/shared/organization/api/list-organizations.ts';

/** A§7 list customers: 50 per page, sorted and searched (`q`, issue 36) by the server. */
export function listCustomers(start: number, sort: OrganizationSort, order: 'asc' | 'desc', search = '') {
  return listOrganizations({ start, limit: ORGANIZATIONS_PAGE_SIZE, sort, order, ...(search ? { q: search } : {}) });
}
