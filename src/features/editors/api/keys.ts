import { queryKeys } from '@/shared/query/keys.ts';

/** The Editors page's list, under the staff editors key that the dashboard's editor picker shares. */
export const editorsListKey = () => [...queryKeys.staff('editors'), 'list'] as const;
