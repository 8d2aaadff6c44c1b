import { queryKeys } from '@/shared/query/keys.ts';

/**
 * The Admin Settings reads, each under the shared key of what it shows (so a purchase that
 * invalidates the organization refreshes them all), with its own tail: the staff organization
 * page keeps other shapes (pages of 4 users, the staff organization) under the same prefixes.
 */
export const settingsKeys = {
  users: (id: number) => [...queryKeys.organizationUsers(id), 'customer-settings'] as const,
  credits: (id: number) => [...queryKeys.organizationBilling(id), 'credits'] as const,
  subscriptions: (id: number) => [...queryKeys.organizationBilling(id), 'subscriptions'] as const,
  /** Which card form to show: fixed for the life of the server. */
  clientConfig: () => ['client-config'] as const,
  coupon: (organizationId: number, code: string) => ['coupon', organizationId, code] as const,
};
