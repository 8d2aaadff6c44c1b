import { queryKeys } from '@/shared/query/keys.ts';

/** The credits tab reads the customers list by expiry: under its key, a credits change elsewhere refreshes it. */
export const expiringKey = () => [...queryKeys.staff('customers'), 'expiring'] as const;
