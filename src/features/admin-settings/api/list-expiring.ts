import { OrganizationRowListStruct } from '@/domain/contract/customers.ts';
import { api } from '@/lib/api-client.ts';

/** Organizations by credits end date, soonest first (the credits tab keeps those under 91 days). */
export function listByExpiry() {
  return api('GET', '/organizations', { query: { start: 0, limit: 100, sort: 'expiry', order: 'asc' }, struct: OrganizationRowListStruct });
}
