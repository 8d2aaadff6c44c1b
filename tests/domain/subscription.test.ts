import { describe, expect, it } from 'vitest';
import {
  addMonths,
  creditPeriodLabel,
  daysBetween,
  effectiveInterval,
  expiryWarning,
  isIsoDate,
  isSubscriptionActive,
  nextRenewDate,
  subscriptionStatus,
} from '../../src/domain/subscription.ts';

describe('subscription status (A§4)', () => {
  it('is inactive without renewableAt, canceled when cancelled, else active', () => {
    expect(subscriptionStatus(null, false)).toBe('inactive');
    expect(subscriptionStatus(null, true)).toBe('inactive');
    expect(subscriptionStatus('2027-01-01T00:00:00Z', true)).toBe('canceled');
    expect(subscriptionStatus('2027-01-01T00:00:00Z', false)).toBe('active');
    expect(isSubscriptionActive('2027-01-01T00:00:00Z', false)).toBe(true);
    expect(isSubscriptionActive('2027-01-01T00:00:00Z', true)).toBe(false);
  });
});

describe('dates', () => {
  it('recognises real calendar dates only', () => {
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2027-02-29')).toBe(false);
    expect(isIsoDate('2027-13-01')).toBe(false);
    expect(isIsoDate('2027-1-01')).toBe(false);
    expect(isIsoDate('01/02/2027')).toBe(false);
  });

  it('counts whole days between dates', () => {
    expect(daysBetween('2026-11-21', '2026-11-21')).toBe(0);
    expect(daysBetween('2026-11-21', '2027-02-20')).toBe(91);
    expect(daysBetween('2026-11-21', '2026-11-20')).toBe(-1);
    // A daylight-saving change in between does not shift the count.
    expect(daysBetween('2026-03-01', '2026-04-01')).toBe(31);
  });

  it('adds months, clamping to the end of shorter months', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-11-15', 3)).toBe('2027-02-15');
    expect(addMonths('2026-05-10', 12)).toBe('2027-05-10');
  });
});

describe('expiry warning (C§9, A§9: under 91 days)', () => {
  const today = '2026-11-21';
  it('warns under 91 days, not at 91 or without an end date', () => {
    expect(expiryWarning('2027-02-20', today)).toBeNull(); // 91 days
    expect(expiryWarning('2027-02-19', today)).toEqual({ daysLeft: 90, expired: false });
    expect(expiryWarning(today, today)).toEqual({ daysLeft: 0, expired: false });
    expect(expiryWarning('2026-11-01', today)).toEqual({ daysLeft: -20, expired: true });
    expect(expiryWarning(null, today)).toBeNull();
  });
});

describe('credit period (A§9)', () => {
  it('names the period and defaults a missing interval to 12 months', () => {
    expect(creditPeriodLabel(1)).toBe('month');
    expect(creditPeriodLabel(3)).toBe('3 months');
    expect(creditPeriodLabel(0)).toBe('12 months');
    expect(effectiveInterval(null)).toBe(12);
  });

  it('finds the next renewal after today from the start date', () => {
    const plan = { startDate: '2026-01-31', endDate: '2027-01-30', intervalMonths: 1, renewable: true };
    expect(nextRenewDate(plan, '2026-11-21')).toBe('2026-11-30');
    expect(nextRenewDate(plan, '2026-11-30')).toBe('2026-12-31');
    expect(nextRenewDate(plan, '2026-02-01')).toBe('2026-02-28');
    expect(nextRenewDate(plan, '2025-12-01')).toBe('2026-02-28');
    expect(nextRenewDate({ ...plan, intervalMonths: 3, endDate: null }, '2026-11-21')).toBe('2027-01-31');
    expect(nextRenewDate({ ...plan, intervalMonths: 3 }, '2026-11-21')).toBeNull(); // 2027-01-31 is after the end
    expect(nextRenewDate({ ...plan, intervalMonths: 0 }, '2026-11-21')).toBeNull(); // 12 months → 2027-01-31, after the end
    expect(nextRenewDate({ ...plan, renewable: false }, '2026-11-21')).toBeNull();
    expect(nextRenewDate({ ...plan, startDate: null }, '2026-11-21')).toBeNull();
    expect(nextRenewDate({ ...plan, endDate: null, intervalMonths: 12 }, '2030-06-01')).toBe('2031-01-31');
  });
});

describe('renew date of a monthly plan (issue 12: start Sep 18 showed Dec 17)', () => {
  const monthly = (startDate: string, endDate: string | null = null) => ({ startDate, endDate, intervalMonths: 1, renewable: true });

  it('keeps the start day: Sep 18 renews on the 18th', () => {
    expect(nextRenewDate(monthly('2026-09-18'), '2026-11-23')).toBe('2026-12-18');
    expect(nextRenewDate(monthly('2026-09-18'), '2026-09-18')).toBe('2026-10-18');
    expect(nextRenewDate(monthly('2026-09-18'), '2026-10-17')).toBe('2026-10-18');
    expect(nextRenewDate(monthly('2026-09-18'), '2026-10-18')).toBe('2026-11-18');
  });

  it('clamps month ends without drifting (Jan 31 → Feb 28 → Mar 31)', () => {
    expect(addMonths('2027-01-31', 1)).toBe('2027-02-28');
    expect(addMonths('2027-01-31', 2)).toBe('2027-03-31');
    expect(addMonths('2026-08-31', 1)).toBe('2026-09-30');
    expect(addMonths('2026-12-31', 2)).toBe('2027-02-28');
    expect(nextRenewDate(monthly('2027-01-31'), '2027-02-28')).toBe('2027-03-31');
    expect(nextRenewDate(monthly('2027-01-31'), '2027-02-27')).toBe('2027-02-28');
    expect(nextRenewDate(monthly('2026-10-31'), '2026-11-30')).toBe('2026-12-31');
  });

  it('knows leap years (Feb 29 in 2028, not in 2100; Feb 29 starts renew on the 29th when there is one)', () => {
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2027-01-29', 1)).toBe('2027-02-28');
    expect(addMonths('2100-01-30', 1)).toBe('2100-02-28');
    expect(addMonths('2000-01-30', 1)).toBe('2000-02-29');
    expect(addMonths('2028-02-29', 12)).toBe('2029-02-28');
    expect(addMonths('2028-02-29', 48)).toBe('2032-02-29');
    expect(nextRenewDate(monthly('2028-02-29'), '2028-03-01')).toBe('2028-03-29');
    expect(nextRenewDate({ ...monthly('2028-02-29'), intervalMonths: 12 }, '2028-03-01')).toBe('2029-02-28');
  });

  it('crosses year ends and stops at the end date', () => {
    expect(nextRenewDate(monthly('2026-09-18'), '2026-12-18')).toBe('2027-01-18');
    expect(nextRenewDate(monthly('2026-09-18', '2027-09-18'), '2027-08-18')).toBe('2027-09-18');
    expect(nextRenewDate(monthly('2026-09-18', '2027-09-17'), '2027-08-18')).toBeNull();
  });
});
