import * as operations from '@/domain/contract/customers.ts';
import type { OrganizationListQuery } from '@/domain/contract/customers.ts';
import { call } from '@/lib/api-client.ts';

/** A§7 GET organizations: a page of organization rows (customers, onboarding, expiring credits), sorted and filtered by the server. */
export function listOrganizations(query: Partial<OrganizationListQuery> & { start: number; limit: number }) {
  return call(operations.listOrganizations, { query });
}
