import { ORGANIZATIONS_PAGE_SIZE, OrganizationRowListStruct, type OrganizationSort } from '@/domain/contract/customers.ts';
import { api } from '@/lib/api-client.ts';

/** A§7 list customers: 50 per page, sorted and searched (`q`, issue 36) by the server. */
export function listCustomers(start: number, sort: OrganizationSort, order: 'asc' | 'desc', search = '') {
  return api('GET', '/organizations', { query: { start, limit: ORGANIZATIONS_PAGE_SIZE, sort, order, ...(search ? { q: search } : {}) }, struct: OrganizationRowListStruct });
}
