import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';
import { US_FEDERAL_CALENDAR, businessCalendar, federalHolidays, type BusinessCalendar, type HolidayEdit } from '../../src/domain/holiday-calendar.ts';
import type { ProjectStatus } from '../../src/domain/project-status.ts';
import { isDigestDue } from '../../src/domain/review-mail.ts';
import {
  SLA_MINUTES,
  SLA_TIME_ZONE,
  businessMillisecondsBetween,
  businessMinutesBetween,
  businessClock,
  formatSlaMinutes,
  holidayAt,
  isBusinessDayAt,
  isWeekendAt,
  slaSortKey,
  isSlaRunning,
  slaPauseReason,
  slaRemainingMinutes,
  slaTimer,
  type SlaInput,
} from '../../src/domain/sla-timer.ts';

/**
 * The weekend arithmetic and DST cases below were written before holidays (issue 36 item 11):
 * they count on a calendar without any, so what they check stays what they say. The holiday
 * cases and the properties over random calendars are further down.
 */
const WEEKENDS_ONLY: BusinessCalendar = { edits: [], holidayOnDay: () => null };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A New York wall-clock time ("2026-03-06T20:00") as an instant, via date-fns-tz (independent of the code under test). */
const ny = (wall: string): Date => fromZonedTime(wall, SLA_TIME_ZONE);
const utc = (iso: string): Date => new Date(iso);

const RUNNING: ProjectStatus[] = ['WAITING_FOR_EDITOR', 'IN_EDITING'];
const FROZEN: ProjectStatus[] = ['PAUSED', 'IN_REVIEW', 'DELETED', 'HIDDEN', 'APPROVED', 'ARCHIVED'];

function input(partial: Partial<SlaInput> & Pick<SlaInput, 'status'>): SlaInput {
  return { latestSubmittedAt: null, pausedAt: null, totalPausedMinutes: 0, ...partial };
}

/** Independent oracle: walk New York calendar days with date-fns-tz, summing overlaps with Mon–Fri days that are not in `holidays` (YYYY-MM-DD). */
function referenceBusinessMs(a: Date, b: Date, holidays: ReadonlySet<string> = new Set()): number {
  if (b <= a) return 0;
  let date = formatInTimeZone(a, SLA_TIME_ZONE, 'yyyy-MM-dd');
  let total = 0;
  for (;;) {
    const dayStart = ny(`${date}T00:00:00`).getTime();
    if (dayStart >= b.getTime()) return total;
    const nextDate = new Date(Date.parse(`${date}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
    const nextStart = ny(`${nextDate}T00:00:00`).getTime();
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    if (weekday >= 1 && weekday <= 5 && !holidays.has(date)) {
      total += Math.max(0, Math.min(b.getTime(), nextStart) - Math.max(a.getTime(), dayStart));
    }
    date = nextDate;
  }
}

/** Instants from 1990 to 2060, millisecond precision. */
const instant = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2060, 0, 1) });
/** A week index counted from Saturday 2000-01-01 (a Saturday) up to about 2090. */
const weekIndex = fc.integer({ min: 0, max: 4700 });
/** New York calendar date `days` after 2000-01-01, as YYYY-MM-DD. */
const dateAfter2000 = (days: number): string => new Date(Date.UTC(2000, 0, 1) + days * DAY).toISOString().slice(0, 10);
const RUNS = { numRuns: 300 };

describe('constants and status rules', () => {
  it('exposes the budget and time zone', () => {
    expect(SLA_MINUTES).toBe(2880);
    expect(SLA_TIME_ZONE).toBe('America/New_York');
  });

  it('runs only while IN_EDITING or WAITING_FOR_EDITOR', () => {
    for (const s of RUNNING) expect(isSlaRunning(s)).toBe(true);
    for (const s of [...FROZEN, 'OPENED'] as ProjectStatus[]) expect(isSlaRunning(s)).toBe(false);
  });
});

describe('formatSlaMinutes', () => {
  it.each([
    [2880, '48:00'],
    [425, '07:05'],
    [0, '00:00'],
    [-0, '00:00'],
    [59, '00:59'],
    [-1, '-00:01'],
    [-195, '-03:15'],
    [-7205, '-120:05'],
    [1800, '30:00'],
  ])('%d → %s', (minutes, text) => {
    expect(formatSlaMinutes(minutes)).toBe(text);
  });

  it('truncates fractions toward zero and rejects non-finite values', () => {
    expect(formatSlaMinutes(61.9)).toBe('01:01');
    expect(formatSlaMinutes(-0.5)).toBe('00:00');
    expect(() => formatSlaMinutes(Number.NaN)).toThrow(RangeError);
    expect(() => formatSlaMinutes(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('businessMinutesBetween: hand-checked cases', () => {
  it('Friday 16:00 → Monday 10:00 in New York is 8 h + 10 h = 18 h', () => {
    // June 2026 (EDT, UTC−4), written as UTC literals so the check does not rely on any tz code.
    expect(businessMinutesBetween(utc('2026-06-05T20:00:00Z'), utc('2026-06-08T14:00:00Z'), WEEKENDS_ONLY)).toBe(18 * 60);
    // The same through date-fns-tz, in winter (EST, UTC−5).
    expect(businessMinutesBetween(ny('2026-01-09T16:00'), ny('2026-01-12T10:00'), WEEKENDS_ONLY)).toBe(18 * 60);
  });

  it('counts 0 for spans inside a weekend', () => {
    expect(businessMinutesBetween(ny('2026-06-06T00:00'), ny('2026-06-08T00:00'), WEEKENDS_ONLY)).toBe(0); // Sat 00:00 → Mon 00:00
    expect(businessMinutesBetween(ny('2026-06-06T10:00'), ny('2026-06-07T22:00'), WEEKENDS_ONLY)).toBe(0);
    expect(businessMinutesBetween(ny('2026-06-05T23:59'), ny('2026-06-08T00:00'), WEEKENDS_ONLY)).toBe(1); // the last Friday minute
    expect(businessMinutesBetween(ny('2026-06-06T00:00'), ny('2026-06-08T00:01'), WEEKENDS_ONLY)).toBe(1); // the first Monday minute
  });

  it('counts New York days, not UTC days', () => {
    // Friday 21:00 New York is already Saturday in UTC, but it is still a business hour.
    expect(businessMinutesBetween(ny('2026-06-05T21:00'), ny('2026-06-05T22:00'), WEEKENDS_ONLY)).toBe(60);
    // Sunday 21:00 New York is Monday in UTC, but it is still the weekend.
    expect(businessMinutesBetween(ny('2026-06-07T21:00'), ny('2026-06-07T23:00'), WEEKENDS_ONLY)).toBe(0);
  });

  it('whole weeks count 5 × 24 h', () => {
    expect(businessMinutesBetween(ny('2026-06-01T00:00'), ny('2026-06-08T00:00'), WEEKENDS_ONLY)).toBe(5 * 24 * 60);
    expect(businessMinutesBetween(ny('2026-06-03T12:00'), ny('2026-06-10T12:00'), WEEKENDS_ONLY)).toBe(5 * 24 * 60);
    // 2026-01-05 (Mon) → 2026-12-28 (Mon): 51 weeks, across both DST switches.
    expect(businessMinutesBetween(ny('2026-01-05T00:00'), ny('2026-12-28T00:00'), WEEKENDS_ONLY)).toBe(51 * 5 * 24 * 60);
  });

  it('is 0 when end <= start or a date is invalid', () => {
    const t = ny('2026-06-03T12:00');
    expect(businessMinutesBetween(t, t, WEEKENDS_ONLY)).toBe(0);
    expect(businessMinutesBetween(t, new Date(t.getTime() - HOUR), WEEKENDS_ONLY)).toBe(0);
    expect(businessMinutesBetween(new Date(Number.NaN), t, WEEKENDS_ONLY)).toBe(0);
    expect(businessMinutesBetween(t, new Date(Number.NaN), WEEKENDS_ONLY)).toBe(0);
  });

  it('rounds partial minutes down', () => {
    const t = ny('2026-06-03T12:00');
    expect(businessMinutesBetween(t, new Date(t.getTime() + 59_999), WEEKENDS_ONLY)).toBe(0);
    expect(businessMinutesBetween(t, new Date(t.getTime() + 60_000), WEEKENDS_ONLY)).toBe(1);
    expect(businessMillisecondsBetween(t, new Date(t.getTime() + 59_999), WEEKENDS_ONLY)).toBe(59_999);
  });
});

describe('businessMinutesBetween across DST switches', () => {
  // Since the Uniform Time Act (1967) every US switch is at 02:00 on a Sunday (2026-03-08,
  // 2026-11-01, 2027-03-14, 2027-11-07), so in practice a business day is always 24 h long
  // and a switch only changes the real length of a weekend (47 h in spring, 49 h in autumn).
  // The code still counts real minutes per day; the 1942 case below checks a weekday switch.

  it('spring forward 2026-03-08: Friday 20:00 → Monday 04:00 is 4 h + 4 h', () => {
    const from = ny('2026-03-06T20:00'); // EST
    const to = ny('2026-03-09T04:00'); // EDT
    expect(from.toISOString()).toBe('2026-03-07T01:00:00.000Z');
    expect(to.toISOString()).toBe('2026-03-09T08:00:00.000Z');
    expect((to.getTime() - from.getTime()) / HOUR).toBe(55); // 4 + 47 (short weekend) + 4
    expect(businessMinutesBetween(from, to, WEEKENDS_ONLY)).toBe(480);
    // The 47-hour weekend counts nothing; the Monday after is a full 24 h.
    expect(businessMinutesBetween(ny('2026-03-07T00:00'), ny('2026-03-09T00:00'), WEEKENDS_ONLY)).toBe(0);
    expect(businessMinutesBetween(ny('2026-03-09T00:00'), ny('2026-03-10T00:00'), WEEKENDS_ONLY)).toBe(1440);
  });

  it('fall back 2026-11-01: Friday 20:00 → Monday 04:00 is 4 h + 4 h', () => {
    const from = ny('2026-10-30T20:00'); // EDT
    const to = ny('2026-11-02T04:00'); // EST
    expect(from.toISOString()).toBe('2026-10-31T00:00:00.000Z');
    expect(to.toISOString()).toBe('2026-11-02T09:00:00.000Z');
    expect((to.getTime() - from.getTime()) / HOUR).toBe(57); // 4 + 49 (long weekend) + 4
    expect(businessMinutesBetween(from, to, WEEKENDS_ONLY)).toBe(480);
    expect(businessMinutesBetween(ny('2026-10-31T00:00'), ny('2026-11-02T00:00'), WEEKENDS_ONLY)).toBe(0);
  });

  it('spans starting or ending on the switch Sunday count only the business side', () => {
    expect(businessMinutesBetween(ny('2026-03-08T01:30'), ny('2026-03-09T10:00'), WEEKENDS_ONLY)).toBe(600);
    expect(businessMinutesBetween(ny('2026-03-08T03:30'), ny('2026-03-09T10:00'), WEEKENDS_ONLY)).toBe(600);
    expect(businessMinutesBetween(ny('2026-11-01T01:30'), ny('2026-11-02T10:00'), WEEKENDS_ONLY)).toBe(600);
    expect(businessMinutesBetween(ny('2026-10-30T14:00'), ny('2026-11-01T01:30'), WEEKENDS_ONLY)).toBe(600);
  });

  it('2027 switches (2027-03-14, 2027-11-07): Friday noon → Monday noon is 24 h of business time', () => {
    const springFrom = utc('2027-03-12T17:00:00Z'); // Fri 12:00 EST
    const springTo = utc('2027-03-15T16:00:00Z'); // Mon 12:00 EDT
    expect((springTo.getTime() - springFrom.getTime()) / HOUR).toBe(71);
    expect(businessMinutesBetween(springFrom, springTo, WEEKENDS_ONLY)).toBe(24 * 60);

    const fallFrom = utc('2027-11-05T16:00:00Z'); // Fri 12:00 EDT
    const fallTo = utc('2027-11-08T17:00:00Z'); // Mon 12:00 EST
    expect((fallTo.getTime() - fallFrom.getTime()) / HOUR).toBe(73);
    expect(businessMinutesBetween(fallFrom, fallTo, WEEKENDS_ONLY)).toBe(24 * 60);
  });

  it('counts the real length of a business day when a switch does fall on one (War Time, Monday 1942-02-09)', () => {
    // The only weekday switch in New York's tz history: clocks went 02:00 → 03:00 on a Monday.
    const monday = ny('1942-02-09T00:00');
    const tuesday = ny('1942-02-10T00:00');
    expect((tuesday.getTime() - monday.getTime()) / HOUR).toBe(23);
    expect(businessMinutesBetween(monday, tuesday, WEEKENDS_ONLY)).toBe(23 * 60);
    expect(businessMinutesBetween(ny('1942-02-06T00:00'), ny('1942-02-13T00:00'), WEEKENDS_ONLY)).toBe(5 * 24 * 60 - 60);
    // A whole Monday-to-Monday week containing the switch (the code sums such weeks in one step).
    expect(businessMinutesBetween(ny('1942-02-09T00:00'), ny('1942-02-16T00:00'), WEEKENDS_ONLY)).toBe(5 * 24 * 60 - 60);
    expect(businessMinutesBetween(ny('1942-02-02T00:00'), ny('1942-02-23T00:00'), WEEKENDS_ONLY)).toBe(15 * 24 * 60 - 60);
  });
});

describe('businessMinutesBetween: properties', () => {
  it('agrees with an independent day-by-day oracle (spans up to 40 days)', () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: 0, max: 40 * DAY }), (a, length) => {
        const start = new Date(a);
        const end = new Date(a + length);
        expect(businessMillisecondsBetween(start, end, WEEKENDS_ONLY)).toBe(referenceBusinessMs(start, end));
      }),
      RUNS,
    );
  });

  it('is additive: (a, c) = (a, b) + (b, c) for a <= b <= c', () => {
    fc.assert(
      fc.property(fc.tuple(instant, instant, instant), (triple) => {
        const [a, b, c] = triple.sort((x, y) => x - y).map((t) => new Date(t)) as [Date, Date, Date];
        // Exactly, in milliseconds.
        expect(businessMillisecondsBetween(a, c, WEEKENDS_ONLY)).toBe(
          businessMillisecondsBetween(a, b, WEEKENDS_ONLY) + businessMillisecondsBetween(b, c, WEEKENDS_ONLY),
        );
        // In whole minutes the parts may each lose a partial minute: the sum is short by at most 1.
        const whole = businessMinutesBetween(a, c, WEEKENDS_ONLY);
        const parts = businessMinutesBetween(a, b, WEEKENDS_ONLY) + businessMinutesBetween(b, c, WEEKENDS_ONLY);
        expect(whole - parts).toBeGreaterThanOrEqual(0);
        expect(whole - parts).toBeLessThanOrEqual(1);
      }),
      RUNS,
    );
  });

  it('is exactly additive in minutes for minute-aligned instants', () => {
    const minuteInstant = instant.map((t) => Math.floor(t / MINUTE) * MINUTE);
    fc.assert(
      fc.property(fc.tuple(minuteInstant, minuteInstant, minuteInstant), (triple) => {
        const [a, b, c] = triple.sort((x, y) => x - y).map((t) => new Date(t)) as [Date, Date, Date];
        expect(businessMinutesBetween(a, c, WEEKENDS_ONLY)).toBe(businessMinutesBetween(a, b, WEEKENDS_ONLY) + businessMinutesBetween(b, c, WEEKENDS_ONLY));
      }),
      RUNS,
    );
  });

  it('is bounded by the real elapsed minutes (and is never negative)', () => {
    fc.assert(
      fc.property(instant, instant, (x, y) => {
        const minutes = businessMinutesBetween(new Date(x), new Date(y), WEEKENDS_ONLY);
        expect(minutes).toBeGreaterThanOrEqual(0);
        expect(minutes).toBeLessThanOrEqual(Math.max(0, Math.floor((y - x) / MINUTE)));
      }),
      RUNS,
    );
  });

  it('is monotonic in end', () => {
    fc.assert(
      fc.property(instant, instant, instant, (a, x, y) => {
        const [b, c] = x <= y ? [x, y] : [y, x];
        expect(businessMinutesBetween(new Date(a), new Date(b), WEEKENDS_ONLY)).toBeLessThanOrEqual(
          businessMinutesBetween(new Date(a), new Date(c), WEEKENDS_ONLY),
        );
      }),
      RUNS,
    );
  });

  it('is 0 when both ends are in the same New York weekend', () => {
    fc.assert(
      fc.property(weekIndex, fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (week, p, q) => {
        const saturday = ny(`${dateAfter2000(week * 7)}T00:00`).getTime();
        const monday = ny(`${dateAfter2000(week * 7 + 2)}T00:00`).getTime();
        const at = (f: number) => Math.min(monday - 1, saturday + Math.floor(f * (monday - saturday)));
        const [a, b] = [at(p), at(q)].sort((x, y) => x - y) as [number, number];
        expect(businessMinutesBetween(new Date(a), new Date(b), WEEKENDS_ONLY)).toBe(0);
      }),
      RUNS,
    );
  });

  it('equals the real elapsed time for any span inside Monday 00:00 – Saturday 00:00 (no US switch on a weekday since 1967)', () => {
    fc.assert(
      fc.property(weekIndex, fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (week, p, q) => {
        const monday = ny(`${dateAfter2000(week * 7 + 2)}T00:00`).getTime();
        const saturday = ny(`${dateAfter2000(week * 7 + 7)}T00:00`).getTime();
        expect(saturday - monday).toBe(5 * DAY); // plain instant arithmetic: the business week is 120 real hours
        const at = (f: number) => monday + Math.floor(f * (saturday - monday));
        const [a, b] = [at(p), at(q)].sort((x, y) => x - y) as [number, number];
        expect(businessMillisecondsBetween(new Date(a), new Date(b), WEEKENDS_ONLY)).toBe(b - a);
        expect(businessMinutesBetween(new Date(a), new Date(b), WEEKENDS_ONLY)).toBe(Math.floor((b - a) / MINUTE));
      }),
      RUNS,
    );
  });
});

describe('slaRemainingMinutes / slaTimer: hand-checked cases', () => {
  it('submitted Friday 16:00, now Monday 10:00 → 18 h elapsed → 30:00, running', () => {
    const timer = slaTimer(input({ status: 'IN_EDITING', latestSubmittedAt: '2026-06-05T20:00:00Z' }), utc('2026-06-08T14:00:00Z'), WEEKENDS_ONLY);
    expect(timer).toEqual({ minutes: 1800, text: '30:00', running: true, overdue: false });
  });

  it('runs the same way while WAITING_FOR_EDITOR, and across a DST weekend', () => {
    const timer = slaTimer(input({ status: 'WAITING_FOR_EDITOR', latestSubmittedAt: ny('2026-10-30T16:00') }), ny('2026-11-02T10:00'), WEEKENDS_ONLY);
    expect(timer.text).toBe('30:00');
  });

  it('shows 48:00 at submission and ticks once per full business minute', () => {
    const submitted = ny('2026-06-03T09:00');
    const at = (ms: number) =>
      slaRemainingMinutes(input({ status: 'IN_EDITING', latestSubmittedAt: submitted }), new Date(submitted.getTime() + ms), WEEKENDS_ONLY);
    expect(at(0)).toBe(2880);
    expect(at(59_999)).toBe(2880);
    expect(at(60_000)).toBe(2879);
  });

  it('OPENED (NOT PUBLISHED) shows 48:00 whatever the dates', () => {
    const timer = slaTimer(
      input({ status: 'OPENED', latestSubmittedAt: ny('2026-01-05T09:00'), pausedAt: ny('2026-01-06T09:00'), totalPausedMinutes: 30 }),
      ny('2026-06-01T09:00'),
      WEEKENDS_ONLY,
    );
    expect(timer).toEqual({ minutes: 2880, text: '48:00', running: false, overdue: false });
  });

  it.each(FROZEN)('%s is frozen at pausedAt regardless of now', (status) => {
    const project = input({ status, latestSubmittedAt: ny('2026-06-01T09:00'), pausedAt: ny('2026-06-01T17:00') });
    for (const now of [ny('2026-06-01T17:00'), ny('2026-06-02T12:00'), ny('2027-01-01T00:00'), ny('2026-05-01T00:00')]) {
      expect(slaTimer(project, now, WEEKENDS_ONLY)).toEqual({ minutes: 40 * 60, text: '40:00', running: false, overdue: false });
    }
  });

  it('adds totalPausedMinutes back', () => {
    const running = input({ status: 'IN_EDITING', latestSubmittedAt: ny('2026-06-01T09:00'), totalPausedMinutes: 125 });
    // 24 h elapsed, 2 h 05 paused → 48 − 24 + 2:05 = 26:05
    expect(slaTimer(running, ny('2026-06-02T09:00'), WEEKENDS_ONLY).text).toBe('26:05');
    const frozen = { ...running, status: 'PAUSED' as const, pausedAt: ny('2026-06-01T17:00') };
    // 8 h elapsed, 2:05 paused → 42:05
    expect(slaTimer(frozen, ny('2026-06-09T09:00'), WEEKENDS_ONLY).text).toBe('42:05');
  });

  it('goes negative when overdue, with a leading "-"', () => {
    const project = input({ status: 'IN_EDITING', latestSubmittedAt: ny('2026-06-01T09:00') });
    // Mon 09:00 → Wed 12:15 = 51 h 15 → −3:15
    expect(slaTimer(project, ny('2026-06-03T12:15'), WEEKENDS_ONLY)).toEqual({ minutes: -195, text: '-03:15', running: true, overdue: true });
    // Exactly at the deadline: 00:00, not overdue yet; one minute later −00:01.
    expect(slaTimer(project, ny('2026-06-03T09:00'), WEEKENDS_ONLY)).toMatchObject({ text: '00:00', overdue: false });
    expect(slaTimer(project, ny('2026-06-03T09:01'), WEEKENDS_ONLY)).toMatchObject({ text: '-00:01', overdue: true });
    // Later: 120 h, 144 h 05, 168 h 05 elapsed (hours may exceed two digits when negative).
    expect(slaTimer(project, ny('2026-06-08T09:00'), WEEKENDS_ONLY).text).toBe('-72:00');
    expect(slaTimer(project, ny('2026-06-09T09:05'), WEEKENDS_ONLY).text).toBe('-96:05');
    expect(slaTimer(project, ny('2026-06-10T09:05'), WEEKENDS_ONLY).text).toBe('-120:05');
  });

  it('accepts ISO strings as the API sends them', () => {
    const timer = slaTimer(
      { status: 'PAUSED', latestSubmittedAt: '2026-06-01T13:00:00.000Z', pausedAt: '2026-06-01T21:00:00.000Z', totalPausedMinutes: null },
      new Date(),
      WEEKENDS_ONLY,
    );
    expect(timer.text).toBe('40:00');
  });
});

describe('slaRemainingMinutes: incomplete data', () => {
  const now = ny('2026-06-10T12:00');

  it('a frozen status without pausedAt shows the full 48:00 (documented choice)', () => {
    for (const status of FROZEN) {
      expect(slaTimer(input({ status, latestSubmittedAt: ny('2026-06-01T09:00'), totalPausedMinutes: 60 }), now, WEEKENDS_ONLY)).toEqual({
        minutes: 2880,
        text: '48:00',
        running: false,
        overdue: false,
      });
    }
  });

  it('no (or an unparsable) latestSubmittedAt shows 48:00 and does not run', () => {
    for (const status of [...RUNNING, ...FROZEN]) {
      expect(slaTimer(input({ status, pausedAt: ny('2026-06-01T09:00') }), now, WEEKENDS_ONLY)).toMatchObject({ text: '48:00', running: false });
      expect(slaTimer(input({ status, latestSubmittedAt: 'not a date' }), now, WEEKENDS_ONLY)).toMatchObject({ text: '48:00', running: false });
    }
  });

  it('never exceeds 48:00, and ignores negative or non-finite paused minutes', () => {
    const base = { status: 'IN_EDITING' as const, latestSubmittedAt: ny('2026-06-01T09:00'), pausedAt: null };
    expect(slaRemainingMinutes({ ...base, totalPausedMinutes: 10_000 }, ny('2026-06-01T10:00'), WEEKENDS_ONLY)).toBe(2880);
    expect(slaRemainingMinutes({ ...base, totalPausedMinutes: -500 }, ny('2026-06-01T10:00'), WEEKENDS_ONLY)).toBe(2820);
    expect(slaRemainingMinutes({ ...base, totalPausedMinutes: Number.NaN }, ny('2026-06-01T10:00'), WEEKENDS_ONLY)).toBe(2820);
    // A now before submission (clock skew) counts nothing elapsed.
    expect(slaRemainingMinutes({ ...base, totalPausedMinutes: 0 }, ny('2026-05-31T10:00'), WEEKENDS_ONLY)).toBe(2880);
  });

  it('a pausedAt older than the latest submission counts nothing elapsed', () => {
    expect(
      slaRemainingMinutes(input({ status: 'IN_REVIEW', latestSubmittedAt: ny('2026-06-05T09:00'), pausedAt: ny('2026-06-01T09:00') }), now, WEEKENDS_ONLY),
    ).toBe(2880);
  });
});

describe('slaRemainingMinutes: properties', () => {
  const paused = fc.option(fc.integer({ min: 0, max: 5000 }), { nil: null });

  it('a running timer never increases as now advances', () => {
    fc.assert(
      fc.property(fc.constantFrom(...RUNNING), instant, paused, instant, instant, (status, submitted, pausedMinutes, x, y) => {
        const [t1, t2] = x <= y ? [x, y] : [y, x];
        const project = input({ status, latestSubmittedAt: new Date(submitted), totalPausedMinutes: pausedMinutes });
        const earlier = slaRemainingMinutes(project, new Date(t1), WEEKENDS_ONLY);
        const later = slaRemainingMinutes(project, new Date(t2), WEEKENDS_ONLY);
        expect(later).toBeLessThanOrEqual(earlier);
        expect(earlier).toBeLessThanOrEqual(SLA_MINUTES);
        expect(Number.isInteger(later)).toBe(true);
      }),
      RUNS,
    );
  });

  it('a frozen timer is constant in now, and equals the running value at pausedAt', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FROZEN),
        instant,
        fc.integer({ min: 0, max: 30 * DAY }),
        paused,
        instant,
        instant,
        (status, submitted, runFor, pausedMinutes, now1, now2) => {
          const frozen = input({
            status,
            latestSubmittedAt: new Date(submitted),
            pausedAt: new Date(submitted + runFor),
            totalPausedMinutes: pausedMinutes,
          });
          const value = slaRemainingMinutes(frozen, new Date(now1), WEEKENDS_ONLY);
          expect(slaRemainingMinutes(frozen, new Date(now2), WEEKENDS_ONLY)).toBe(value);
          expect(slaTimer(frozen, new Date(now2), WEEKENDS_ONLY).running).toBe(false);
          // Freezing keeps exactly the value the running timer had at the pause.
          const running = { ...frozen, status: 'IN_EDITING' as const };
          expect(value).toBe(slaRemainingMinutes(running, new Date(submitted + runFor), WEEKENDS_ONLY));
        },
      ),
      RUNS,
    );
  });

  it('OPENED is always 48:00', () => {
    fc.assert(
      fc.property(fc.option(instant, { nil: null }), fc.option(instant, { nil: null }), paused, instant, (s, p, pausedMinutes, now) => {
        const project = input({
          status: 'OPENED',
          latestSubmittedAt: s === null ? null : new Date(s),
          pausedAt: p === null ? null : new Date(p),
          totalPausedMinutes: pausedMinutes,
        });
        expect(slaTimer(project, new Date(now), WEEKENDS_ONLY).text).toBe('48:00');
      }),
      RUNS,
    );
  });

  it('text and overdue always agree with minutes', () => {
    fc.assert(
      fc.property(fc.constantFrom(...RUNNING, ...FROZEN), instant, instant, instant, paused, (status, s, p, now, pausedMinutes) => {
        const timer = slaTimer(
          input({ status, latestSubmittedAt: new Date(s), pausedAt: new Date(p), totalPausedMinutes: pausedMinutes }),
          new Date(now),
          WEEKENDS_ONLY,
        );
        expect(timer.overdue).toBe(timer.minutes < 0);
        expect(timer.text).toMatch(timer.overdue ? /^-\d{2,}:[0-5]\d$/ : /^(?:[0-3]\d|4[0-7]):[0-5]\d$|^48:00$/);
        const [h, m] = timer.text.replace('-', '').split(':').map(Number) as [number, number];
        expect((h * 60 + m) * (timer.overdue ? -1 : 1)).toBe(timer.minutes);
      }),
      RUNS,
    );
  });
});

describe('holidays (issue 36 item 11)', () => {
  it('knows the US federal holidays on their OPM observed dates', () => {
    expect(federalHolidays(2026)).toEqual([
      { date: '2026-01-01', name: "New Year's Day" },
      { date: '2026-01-19', name: 'Birthday of Martin Luther King, Jr.' },
      { date: '2026-02-16', name: "Washington's Birthday" },
      { date: '2026-05-25', name: 'Memorial Day' },
      { date: '2026-06-19', name: 'Juneteenth National Independence Day' },
      // 4 July 2026 is a Saturday: observed on Friday the 3rd.
      { date: '2026-07-03', name: 'Independence Day (observed)' },
      { date: '2026-09-07', name: 'Labor Day' },
      { date: '2026-10-12', name: 'Columbus Day' },
      { date: '2026-11-11', name: 'Veterans Day' },
      { date: '2026-11-26', name: 'Thanksgiving Day' },
      { date: '2026-12-25', name: 'Christmas Day' },
    ]);
    // 4 July 2027 is a Sunday: observed on Monday the 5th; 25 December 2027 a Saturday: Friday the 24th.
    expect(federalHolidays(2027)).toContainEqual({ date: '2027-07-05', name: 'Independence Day (observed)' });
    expect(federalHolidays(2027)).toContainEqual({ date: '2027-12-24', name: 'Christmas Day (observed)' });
    // 1 January 2028 is a Saturday: observed on Friday 31 December 2027, which 2028 does not list.
    expect(federalHolidays(2027)).toContainEqual({ date: '2027-12-31', name: "New Year's Day (observed)" });
    expect(federalHolidays(2028).map((h) => h.date)).not.toContain('2027-12-31');
    expect(federalHolidays(2028)[0]!.date).toBe('2028-01-17');
    expect(federalHolidays(2025)).toContainEqual({ date: '2025-11-27', name: 'Thanksgiving Day' });
  });

  it('a 48-business-hour SLA over Thanksgiving: submitted Wed 2026-11-25 10:00 New York, it runs out Mon 2026-11-30 10:00, not Friday', () => {
    const project = input({ status: 'IN_EDITING', latestSubmittedAt: ny('2026-11-25T10:00') });
    // Business days are whole days: Wed 14 h, Thu (Thanksgiving) 0, Fri 24 h, weekend 0, Mon 10 h = 48 h at Monday 10:00.
    expect(slaRemainingMinutes(project, ny('2026-11-27T10:00'), US_FEDERAL_CALENDAR)).toBe(24 * 60);
    expect(slaRemainingMinutes(project, ny('2026-11-30T09:59'), US_FEDERAL_CALENDAR)).toBe(1);
    expect(slaRemainingMinutes(project, ny('2026-11-30T10:00'), US_FEDERAL_CALENDAR)).toBe(0);
    // Without holidays (the old count) Thanksgiving counted: it ran out on Friday 10:00.
    expect(slaRemainingMinutes(project, ny('2026-11-27T10:00'), WEEKENDS_ONLY)).toBe(0);
    // The whole holiday counts nothing; the days around it count in full.
    expect(businessMinutesBetween(ny('2026-11-26T00:00'), ny('2026-11-27T00:00'), US_FEDERAL_CALENDAR)).toBe(0);
    expect(businessMinutesBetween(ny('2026-11-25T00:00'), ny('2026-11-28T00:00'), US_FEDERAL_CALENDAR)).toBe(48 * 60);
    expect(isBusinessDayAt(ny('2026-11-26T12:00'), US_FEDERAL_CALENDAR)).toBe(false);
    expect(isBusinessDayAt(ny('2026-11-27T12:00'), US_FEDERAL_CALENDAR)).toBe(true);
    // The daily review digest skips the holiday as it skips a weekend.
    expect(isDigestDue(ny('2026-11-26T09:00'), US_FEDERAL_CALENDAR)).toBe(false);
    expect(isDigestDue(ny('2026-11-27T09:00'), US_FEDERAL_CALENDAR)).toBe(true);
    expect(isDigestDue(ny('2026-11-26T09:00'), WEEKENDS_ONLY)).toBe(true);
  });

  it('observed dates are not business days: Fri 2026-07-03 (a Saturday 4 July) and Mon 2027-07-05 (a Sunday one)', () => {
    expect(businessMinutesBetween(ny('2026-07-03T00:00'), ny('2026-07-06T00:00'), US_FEDERAL_CALENDAR)).toBe(0);
    expect(businessMinutesBetween(ny('2026-07-02T00:00'), ny('2026-07-07T00:00'), US_FEDERAL_CALENDAR)).toBe(48 * 60);
    expect(businessMinutesBetween(ny('2027-07-02T12:00'), ny('2027-07-06T12:00'), US_FEDERAL_CALENDAR)).toBe(24 * 60);
    // A whole week with a holiday: 4 business days (the whole-week shortcut must not count 5).
    expect(businessMinutesBetween(ny('2027-07-05T00:00'), ny('2027-07-12T00:00'), US_FEDERAL_CALENDAR)).toBe(4 * 24 * 60);
    expect(businessMinutesBetween(ny('2026-01-05T00:00'), ny('2026-12-28T00:00'), US_FEDERAL_CALENDAR)).toBe((51 * 5 - 10) * 24 * 60);
  });

  it('an added holiday stops the clock, a removed default runs it', () => {
    const edited = businessCalendar([
      { date: '2026-11-27', name: 'Day after Thanksgiving', kind: 'added' },
      { date: '2026-11-11', name: 'Veterans Day', kind: 'removed' },
    ]);
    expect(businessMinutesBetween(ny('2026-11-27T00:00'), ny('2026-11-28T00:00'), edited)).toBe(0);
    expect(businessMinutesBetween(ny('2026-11-27T00:00'), ny('2026-11-28T00:00'), US_FEDERAL_CALENDAR)).toBe(24 * 60);
    expect(businessMinutesBetween(ny('2026-11-11T00:00'), ny('2026-11-12T00:00'), edited)).toBe(24 * 60);
    expect(businessMinutesBetween(ny('2026-11-11T00:00'), ny('2026-11-12T00:00'), US_FEDERAL_CALENDAR)).toBe(0);
    // Submitted Wed 2026-11-25 10:00 with the Friday after Thanksgiving off too: Wed 14 h, Mon 24 h,
    // Tue 10 h: it runs out Tue 2026-12-01 10:00, not Monday.
    const project = input({ status: 'WAITING_FOR_EDITOR', latestSubmittedAt: ny('2026-11-25T10:00') });
    expect(slaRemainingMinutes(project, ny('2026-11-30T10:00'), edited)).toBe(24 * 60);
    expect(slaRemainingMinutes(project, ny('2026-12-01T10:00'), edited)).toBe(0);
  });

  it('the business clock and the stored deadline leave holidays out (the dashboard sort stays the timer order)', () => {
    const project = input({ status: 'IN_EDITING', latestSubmittedAt: ny('2026-11-25T10:00') });
    const { deadline } = slaSortKey(project, ny('2026-11-25T10:00'), US_FEDERAL_CALENDAR);
    // The deadline is reached exactly when the timer shows 00:00: Monday 10:00.
    expect(businessClock(ny('2026-11-30T10:00'), US_FEDERAL_CALENDAR)).toBe(deadline);
    expect(businessClock(ny('2026-11-27T10:00'), US_FEDERAL_CALENDAR)).toBe(deadline! - 24 * HOUR);
    // The clock stands still through the holiday.
    expect(businessClock(ny('2026-11-26T00:00'), US_FEDERAL_CALENDAR)).toBe(businessClock(ny('2026-11-26T23:59'), US_FEDERAL_CALENDAR));
  });

  /** A calendar with the federal default, some added weekdays and some defaults removed, drawn at random. */
  const calendarArbitrary = fc
    .tuple(fc.array(fc.integer({ min: 0, max: 60 * 366 }), { maxLength: 40 }), fc.array(fc.integer({ min: 0, max: 60 * 11 }), { maxLength: 20 }))
    .map(([addedDays, removedIndexes]) => {
      const edits: HolidayEdit[] = [];
      for (const day of addedDays) {
        const date = dateAfter2000(day);
        const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
        if (weekday !== 0 && weekday !== 6 && !edits.some((e) => e.date === date)) edits.push({ date, name: 'Added', kind: 'added' });
      }
      for (const index of removedIndexes) {
        const holiday = federalHolidays(2000 + Math.floor(index / 11))[index % 11];
        if (holiday && !edits.some((e) => e.date === holiday.date)) edits.push({ date: holiday.date, name: holiday.name, kind: 'removed' });
      }
      return edits;
    });
  /** The holidays of `edits` in effect from 1999 to 2061, as dates: the oracle's set. */
  const holidayDates = (edits: HolidayEdit[]): Set<string> => {
    const dates = new Set<string>();
    for (let year = 1989; year <= 2061; year += 1) for (const h of federalHolidays(year)) dates.add(h.date);
    for (const e of edits) {
      if (e.kind === 'added') dates.add(e.date);
      else dates.delete(e.date);
    }
    return dates;
  };
  const span = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2060, 0, 1) });
  /** Instants within the product's years (each random calendar works out every year a span covers). */
  const nearSpan = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2032, 0, 1) });

  it('agrees with the independent oracle on random calendars (spans up to 60 days)', () => {
    fc.assert(
      fc.property(calendarArbitrary, span, fc.integer({ min: 0, max: 60 * DAY }), (edits, a, length) => {
        const start = new Date(a);
        const end = new Date(a + length);
        expect(businessMillisecondsBetween(start, end, businessCalendar(edits))).toBe(referenceBusinessMs(start, end, holidayDates(edits)));
      }),
      { numRuns: 100 },
    );
  });

  it('is exactly additive on random calendars', () => {
    fc.assert(
      fc.property(calendarArbitrary, fc.tuple(nearSpan, nearSpan, nearSpan), (edits, triple) => {
        const calendar = businessCalendar(edits);
        const [a, b, c] = triple.sort((x, y) => x - y).map((t) => new Date(t)) as [Date, Date, Date];
        expect(businessMillisecondsBetween(a, c, calendar)).toBe(businessMillisecondsBetween(a, b, calendar) + businessMillisecondsBetween(b, c, calendar));
      }),
      { numRuns: 100 },
    );
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
    expect(slaTimer(project, new Date('2026-11-26T05:00:00Z'), US_FEDERAL_CALENDAR).minutes).toBe(
      slaTimer(project, new Date('2026-11-27T04:59:00Z'), US_FEDERAL_CALENDAR).minutes,
    );
    const friday = new Date('2026-11-27T17:00:00Z');
    const edited = businessCalendar([
      { date: '2026-11-27', name: 'Day after Thanksgiving', kind: 'added' },
      { date: '2026-11-26', name: 'Thanksgiving Day', kind: 'removed' },
    ]);
    expect(slaPauseReason(project, friday, US_FEDERAL_CALENDAR)).toBeNull();
    expect(slaPauseReason(project, friday, edited)).toBe('holiday');
    expect(holidayAt(friday, edited)).toBe('Day after Thanksgiving');
    expect(slaPauseReason(project, thanksgiving, edited)).toBeNull();
  });
});
