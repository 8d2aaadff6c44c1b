import { EXPIRY_WARNING_DAYS } from './constants.ts';

/**
 * Subscription and credit-period rules of A§4 and A§9: the subscription status an
 * organization shows, the expiry warning, the renew date and how a credit period is named.
 * Dates are `YYYY-MM-DD` text; `today` is passed in: `businessToday(now)` of
 * src/domain/business-calendar.ts, the one calendar of the product.
 */
export type SubscriptionStatus = 'inactive' | 'canceled' | 'active';

/** A§4: inactive when renewableAt is null; canceled when set and cancelled; otherwise active. */
export function subscriptionStatus(renewableAt: string | null, isCancelled: boolean): SubscriptionStatus {
  if (!renewableAt) return 'inactive';
  return isCancelled ? 'canceled' : 'active';
}

/** The tracking code may be set only while this is true (A§2, A§5). */
export function isSubscriptionActive(renewableAt: string | null, isCancelled: boolean): boolean {
  return subscriptionStatus(renewableAt, isCancelled) === 'active';
}

const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written `YYYY-MM-DD` (no 2027-02-30). */
export function isIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const utc = (iso: string) => Date.parse(`${iso.slice(0, 10)}T00:00:00Z`);

/** Whole calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((utc(to) - utc(from)) / DAY_MS);
}

/**
 * C§9/A§9: a warning when fewer than 91 days remain before the credits' end date. Null when
 * there is nothing to warn about (no end date, or 91 days or more left).
 */
export function expiryWarning(endDate: string | null, today: string): { daysLeft: number; expired: boolean } | null {
  if (!endDate) return null;
  const daysLeft = daysBetween(today, endDate);
  if (daysLeft >= EXPIRY_WARNING_DAYS) return null;
  return { daysLeft, expired: daysLeft < 0 };
}

/** A§9: a credit interval of 0 (or none) counts as 12 months. */
export const DEFAULT_CREDIT_INTERVAL_MONTHS = 12;

export function effectiveInterval(intervalMonths: number | null | undefined): number {
  return intervalMonths && intervalMonths > 0 ? intervalMonths : DEFAULT_CREDIT_INTERVAL_MONTHS;
}

/** C§2 credits card: the period is "month" or "N months". */
export function creditPeriodLabel(intervalMonths: number | null | undefined): string {
  const months = effectiveInterval(intervalMonths);
  return months === 1 ? 'month' : `${months} months`;
}

/** `iso` plus `months` calendar months; the day is clamped to the month's length (Jan 31 + 1 → Feb 28). */
export function addMonths(iso: string, months: number): string {
  const [y, m, d] = iso.slice(0, 10).split('-').map(Number) as [number, number, number];
  const monthIndex = m - 1 + months;
  const year = y + Math.floor(monthIndex / 12);
  const month = ((monthIndex % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const date = new Date(Date.UTC(year, month, Math.min(d, lastDay)));
  return date.toISOString().slice(0, 10);
}

/**
 * The next renewal: the first date after `today` that is a whole number of intervals after
 * the start date. Null when the credits do not renew, have no start date, or the next renewal
 * would fall after the end date.
 */
export function nextRenewDate(
  credits: { startDate: string | null; endDate: string | null; intervalMonths: number; renewable: boolean },
  today: string,
): string | null {
  if (!credits.renewable || !credits.startDate) return null;
  const step = effectiveInterval(credits.intervalMonths);
  // Always from the start date, so a month-end start keeps its day (Jan 31 → Feb 28 → Mar 31).
  let k = 1;
  let next = addMonths(credits.startDate, step);
  while (next <= today) {
    k += 1;
    next = addMonths(credits.startDate, k * step);
  }
  if (credits.endDate && next > credits.endDate) return null;
  return next;
}
