import { describe, expect, it } from 'vitest';
import { hasCreditLeft } from '../../src/domain/credits.ts';
import { decideRoute, notMobileReturnPath } from '../../src/domain/route-guard.ts';
import { US_FEDERAL_CALENDAR, businessCalendar } from '../../src/domain/holiday-calendar.ts';
import { holidayAt, isWeekendAt, slaPauseReason, slaTimer } from '../../src/domain/sla-timer.ts';
import { addMonths, nextRenewDate } from '../../src/domain/subscription.ts';
import { runningProgress } from '../../src/domain/uploads.ts';

/** Issue 12, customer portal: the rules behind the rough edges. */
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

describe('a credit to send with (issue 12: say "no credits" before the confirmation)', () => {
  it('needs active credits not all used', () => {
    expect(hasCreditLeft({ active: true, usedCredits: 6, activeCredits: 10 })).toBe(true);
    expect(hasCreditLeft({ active: true, usedCredits: 10, activeCredits: 10 })).toBe(false);
    expect(hasCreditLeft({ active: true, usedCredits: 0, activeCredits: 0 })).toBe(false);
    expect(hasCreditLeft({ active: false, usedCredits: 0, activeCredits: 10 })).toBe(false);
  });
});

describe('the narrow-window notice returns to the page it replaced', () => {
  it('remembers the page in ?from=', () => {
    expect(decideRoute('/user/create-project', { role: 'OWNER', isMobile: true })).toEqual({ kind: 'redirect', to: '/not-mobile?from=%2Fuser%2Fcreate-project' });
    expect(decideRoute('/dashboard', { role: 'ADMIN', isMobile: true })).toEqual({ kind: 'redirect', to: '/not-mobile?from=%2Fdashboard' });
    expect(decideRoute('/', { role: 'OWNER', isMobile: true })).toEqual({ kind: 'redirect', to: '/not-mobile' });
  });

  it('goes back only to a path of this app', () => {
    expect(notMobileReturnPath('?from=%2Fuser%2Fcreate-project')).toBe('/user/create-project');
    expect(notMobileReturnPath('from=/user/project/12')).toBe('/user/project/12');
    expect(notMobileReturnPath('')).toBe('/');
    expect(notMobileReturnPath('?from=https://evil.example')).toBe('/');
    expect(notMobileReturnPath('?from=//evil.example')).toBe('/');
    expect(notMobileReturnPath('?from=/\\evil.example')).toBe('/');
    expect(notMobileReturnPath('?from=/not-mobile')).toBe('/');
  });
});

describe('an owner whose registration stopped after the account step', () => {
  it('is sent from every customer page to /register (which continues at the organization step)', () => {
    for (const path of ['/user/projects', '/user/project/3', '/user/content-library', '/user/admin-settings', '/user'])
      expect(decideRoute(path, { role: 'OWNER', isMobile: false, withoutOrganization: true })).toEqual({ kind: 'redirect', to: '/register' });
    expect(decideRoute('/register', { role: 'OWNER', isMobile: false, withoutOrganization: true })).toEqual({ kind: 'render' });
    expect(decideRoute('/user/projects', { role: 'OWNER', isMobile: false, withoutOrganization: false })).toEqual({ kind: 'render' });
  });
});

describe('a frozen SLA timer says why', () => {
  // 2026-11-21 is a Saturday, 2026-11-23 a Monday (New York).
  const saturday = new Date('2026-11-21T17:00:00Z');
  const monday = new Date('2026-11-23T17:00:00Z');
  const sundayLateNewYork = new Date('2026-11-23T04:30:00Z'); // Sunday 23:30 in New York
  const project = { status: 'IN_EDITING' as const, latestSubmittedAt: '2026-11-20T15:00:00Z', pausedAt: null, totalPausedMinutes: 0 };

  it('is paused for the weekend on Saturday and Sunday in New York, not on Monday', () => {
    expect(isWeekendAt(saturday)).toBe(true);
    expect(isWeekendAt(sundayLateNewYork)).toBe(true);
    expect(isWeekendAt(monday)).toBe(false);
    expect(slaPauseReason(project, saturday, US_FEDERAL_CALENDAR)).toBe('weekend');
    expect(slaPauseReason(project, monday, US_FEDERAL_CALENDAR)).toBeNull();
    // The value really does not move over the weekend.
    expect(slaTimer(project, saturday, US_FEDERAL_CALENDAR).minutes).toBe(slaTimer(project, sundayLateNewYork, US_FEDERAL_CALENDAR).minutes);
  });

  it('says paused for a paused project, and nothing for statuses without a countdown', () => {
    expect(slaPauseReason({ status: 'PAUSED' }, monday, US_FEDERAL_CALENDAR)).toBe('paused');
    expect(slaPauseReason({ status: 'OPENED' }, saturday, US_FEDERAL_CALENDAR)).toBeNull();
    expect(slaPauseReason({ status: 'IN_REVIEW' }, saturday, US_FEDERAL_CALENDAR)).toBeNull();
  });

  it('is paused for the holiday on a holiday (issue 36 item 11): Thanksgiving, an added date, not a removed default', () => {
    const thanksgiving = new Date('2026-11-26T17:00:00Z'); // Thursday noon in New York
    expect(isWeekendAt(thanksgiving)).toBe(false);
    expect(holidayAt(thanksgiving, US_FEDERAL_CALENDAR)).toBe('Thanksgiving Day');
    expect(slaPauseReason(project, thanksgiving, US_FEDERAL_CALENDAR)).toBe('holiday');
    expect(slaPauseReason({ status: 'PAUSED' }, thanksgiving, US_FEDERAL_CALENDAR)).toBe('paused');
    expect(slaPauseReason({ status: 'IN_REVIEW' }, thanksgiving, US_FEDERAL_CALENDAR)).toBeNull();
    // The value does not move over the holiday either: Thursday 00:00 to Friday 00:00 in New York.
    expect(slaTimer(project, new Date('2026-11-26T05:00:00Z'), US_FEDERAL_CALENDAR).minutes).toBe(slaTimer(project, new Date('2026-11-27T04:59:00Z'), US_FEDERAL_CALENDAR).minutes);
    const friday = new Date('2026-11-27T17:00:00Z');
    const edited = businessCalendar([{ date: '2026-11-27', name: 'Day after Thanksgiving', kind: 'added' }, { date: '2026-11-26', name: 'Thanksgiving Day', kind: 'removed' }]);
    expect(slaPauseReason(project, friday, US_FEDERAL_CALENDAR)).toBeNull();
    expect(slaPauseReason(project, friday, edited)).toBe('holiday');
    expect(holidayAt(friday, edited)).toBe('Day after Thanksgiving');
    expect(slaPauseReason(project, thanksgiving, edited)).toBeNull();
  });
});

describe('the uploads panel header matches its bars', () => {
  it('counts only the uploads still queued or running', () => {
    const items = [
      { status: 'done', size: 1_000_000_000, loaded: 1_000_000_000 },
      { status: 'uploading', size: 10_000_000, loaded: 5_000_000 },
      { status: 'queued', size: 10_000_000, loaded: 0 },
      { status: 'incomplete', size: 50_000_000, loaded: 25_000_000 },
    ];
    expect(runningProgress(items)).toEqual({ size: 20_000_000, loaded: 5_000_000, percent: 25 });
    expect(runningProgress(items.slice(0, 2)).percent).toBe(50);
    expect(runningProgress([{ status: 'done', size: 5, loaded: 5 }])).toEqual({ size: 0, loaded: 0, percent: 0 });
  });
});
