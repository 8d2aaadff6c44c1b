import type { OrganizationSort } from '@/domain/contract/customers.ts';
import { queryKeys } from '@/shared/query/keys.ts';

/** The customers table in one sort order and search, under the staff customers key that credits changes invalidate. */
export const customersListKey = (sort: OrganizationSort, order: 'asc' | 'desc', search = '') =>
  [...queryKeys.staff('customers'), 'list', sort, order, search] as const;
export const customersListsKey = () => [...queryKeys.staff('customers'), 'list'] as const;
