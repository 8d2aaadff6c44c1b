import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatInTimeZone } from 'date-fns-tz';
import { BUSINESS_TIME_ZONE, businessDate, businessToday } from '../../src/domain/business-calendar.ts';
import { creditStatus } from '../../src/domain/credits.ts';
import { SLA_TIME_ZONE } from '../../src/domain/sla-timer.ts';
import { expiryWarning } from '../../src/domain/subscription.ts';

describe('business calendar (one "today" for browser, worker and server)', () => {
  it('is New York, the zone of the SLA business days', () => {
    expect(BUSINESS_TIME_ZONE).toBe('America/New_York');
    expect(SLA_TIME_ZONE).toBe(BUSINESS_TIME_ZONE);
  });

  it('gives the New York date, not the UTC one, in a US evening', () => {
    // 21:30 in New York on March 4 is already March 5 in UTC.
    expect(businessToday(new Date('2027-03-05T02:30:00Z'))).toBe('2027-03-04');
    expect(businessToday(new Date('2027-03-05T05:00:00Z'))).toBe('2027-03-05'); // EST midnight
    expect(businessToday(new Date('2027-03-05T04:59:59.999Z'))).toBe('2027-03-04');
    // Summer time: midnight is 04:00 UTC.
    expect(businessToday(new Date('2027-07-01T03:59:59Z'))).toBe('2027-06-30');
    expect(businessToday(new Date('2027-07-01T04:00:00Z'))).toBe('2027-07-01');
  });

  it('crosses daylight-saving changes and year ends', () => {
    expect(businessDate('2027-03-14T06:59:00Z')).toBe('2027-03-14'); // 01:59 EST, just before the spring switch
    expect(businessDate('2027-03-14T07:00:00Z')).toBe('2027-03-14'); // 03:00 EDT
    expect(businessDate('2027-11-07T05:30:00Z')).toBe('2027-11-07'); // 01:30 EDT, first pass
    expect(businessDate('2027-11-07T06:30:00Z')).toBe('2027-11-07'); // 01:30 EST, second pass
    expect(businessDate(Date.parse('2028-01-01T04:59:59Z'))).toBe('2027-12-31');
  });

  it('agrees with date-fns-tz at any instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.parse('1990-01-01T00:00:00Z'), max: Date.parse('2100-01-01T00:00:00Z') }), (ms) => {
        expect(businessDate(ms)).toBe(formatInTimeZone(ms, 'America/New_York', 'yyyy-MM-dd'));
      }),
      { numRuns: 2_000 },
    );
  });

  it('refuses what is not an instant', () => {
    expect(() => businessDate('not a date')).toThrow(RangeError);
  });

  it('makes credits ending "today" ACTIVE until the New York day ends, on every machine', () => {
    const usEvening = new Date('2027-03-05T02:30:00Z'); // March 4, 21:30 in New York
    const today = businessToday(usEvening);
    expect(creditStatus('2026-03-05', '2027-03-04', today)).toBe('ACTIVE');
    expect(expiryWarning('2027-03-04', today)).toEqual({ daysLeft: 0, expired: false });
    const nextMorning = businessToday(new Date('2027-03-05T05:00:00Z'));
    expect(creditStatus('2026-03-05', '2027-03-04', nextMorning)).toBe('INACTIVE');
  });
});
