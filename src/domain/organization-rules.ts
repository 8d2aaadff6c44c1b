import { isStaffRole } from './roles.ts';
import { FIELD_MESSAGES, LIMITS, linkRuleFor } from './validation.ts';

/** Organization fields staff edit (A§2, A§5) and the credits form (A§7), with their messages. */
export const ORGANIZATION_MESSAGES = {
  oneField: 'Send exactly one of state, assetsLink, trackingCode or projectReviewPeriod.',
  stateInvalid: 'The only state that can be set is APPROVED.',
  alreadyComplete: 'This onboarding is already complete.',
  trackingNeedsSubscription: 'The tracking code can be set only while the subscription is active.',
  reviewPeriodDigits: 'Use whole days: digits only.',
  reviewPeriodTooLong: 'The review period must be at most 365 days.',
  noOwner: 'This organization has no active owner to sign in as.',
  dateInvalid: 'Enter a date as YYYY-MM-DD.',
  endBeforeStart: 'The end date must be on or after the start date.',
  wholeNumber: (max: number) => `Enter a whole number from 0 to ${max}.`,
  storageInvalid: 'Enter the storage in TB: a number from 0 to 1000.',
  creditsBelowUsed: (used: number) => `The total cannot be less than the ${used} credits already used.`,
  renewableInvalid: 'Renewable must be true or false.',
} as const;

/** A§2 onboarding: an organization's `statusId` is 1 while onboarding, 2 once staff completed it. */
export const ONBOARDING_COMPLETE = 2;

/** Whether the organization's onboarding is complete (it cannot be completed twice). */
export function isOnboardingComplete(statusId: number): boolean {
  return statusId === ONBOARDING_COMPLETE;
}

export const REVIEW_PERIOD_MAX_DAYS = 365;
export const CREDITS_MAX = 100_000;
export const INTERVAL_MAX_MONTHS = 120;
export const STORAGE_MAX_TB = 1000;

/** A§5 review period: digits only, blank counts as 0, never negative. */
export function reviewPeriodRule(value: string): string | undefined {
  const v = value.trim();
  if (!v) return undefined;
  if (!/^\d+$/.test(v)) return ORGANIZATION_MESSAGES.reviewPeriodDigits;
  if (Number(v) > REVIEW_PERIOD_MAX_DAYS) return ORGANIZATION_MESSAGES.reviewPeriodTooLong;
  return undefined;
}

export function parseReviewPeriod(value: string): number {
  return value.trim() ? Number(value.trim()) : 0;
}

/** A§5: the tracking code is at most 100 characters (blank clears it). */
export function trackingCodeRule(value: string): string | undefined {
  return value.length > LIMITS.trackingId ? FIELD_MESSAGES.trackingTooLong : undefined;
}

const assetLinkRule = linkRuleFor('asset');

/**
 * A§5 link fields of organizations and editors (the organization's assets link, the editor's
 * drive): empty clears the link (saved as null); anything else must pass the asset-link rule.
 */
export function optionalLinkRule(value: string): string | undefined {
  return value.trim() ? assetLinkRule(value.trim()) : undefined;
}

/** Empty text becomes null, as the specs save cleared links and codes. */
export function blankToNull(value: string | null | undefined): string | null {
  const v = value?.trim();
  return v ? v : null;
}

/**
 * Issue 33: the one rule for who sees an organization. Staff see every organization; a customer
 * only its own (another one does not exist for them: the server answers 404). The auth plugin
 * applies it to every route that names an organization, and project access to a project's.
 */
export function seesOrganization(user: { role: string; organizationId: number | null }, organizationId: number): boolean {
  return isStaffRole(user.role) || user.organizationId === organizationId;
}
