import { ORGANIZATIONS_PAGE_SIZE, OrganizationRowListStruct, type OrganizationSort } from '@/domain/contract/customers.ts';
import { api } from '@/lib/api-client.ts';

/** A§7 list customers: 50 per page, sorted by the server. */
export function listCustomers(start: number, sort: OrganizationSort, order: 'asc' | 'desc') {
  return api('GET', '/organizations', { query: { start, limit: ORGANIZATIONS_PAGE_SIZE, sort, order }, struct: OrganizationRowListStruct });
}
