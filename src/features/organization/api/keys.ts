import { queryKeys } from '@/shared/query/keys.ts';

/**
 * The staff organization page's reads, each under the shared organization keys: a credits or
 * subscription change invalidates `organization(id)` and every part of the page follows.
 */
export const organizationKeys = {
  detail: (id: number) => [...queryKeys.organization(id), 'staff'] as const,
  credits: (id: number) => [...queryKeys.organizationBilling(id), 'credits'] as const,
  subscriptions: (id: number) => [...queryKeys.organizationBilling(id), 'subscriptions'] as const,
  usersPage: (id: number, start: number) => [...queryKeys.organizationUsers(id), start] as const,
};
