import { queryKeys } from '@/shared/query/keys.ts';

/** Each onboarding tab's list, under the staff onboarding key that organization changes invalidate. */
export const onboardingListKey = (list: 'in-progress' | 'completed' | 'trial') => [...queryKeys.staff('onboarding'), list] as const;
