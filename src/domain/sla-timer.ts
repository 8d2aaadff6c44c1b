/**
 * The project SLA timer (A§4, A§9): 48 hours that count only on business days in
 * New York, from the moment the project was submitted, minus the time it spent paused. A
 * business day is a Monday–Friday New York date that is not a holiday of the calendar passed in
 * (src/domain/holiday-calendar.ts: US federal holidays by default, edited by a superadmin).
 *
 * One pure module for every place that shows or sorts by the timer: the staff lists, the
 * project page, the organization page and the server. It uses only ECMAScript `Intl` for the
 * time zone (no DOM, no Node APIs), so the browser, the upload worker and Node agree.
 */
import { BUSINESS_TIME_ZONE } from './business-calendar.ts';
import type { BusinessCalendar } from './holiday-calendar.ts';
import type { ProjectStatus } from './project-status.ts';

/** The SLA budget: 48 hours of business time. */
export const SLA_MINUTES = 48 * 60;
/** Business days are whole calendar days, Monday to Friday but holidays, in the business calendar's zone. */
export const SLA_TIME_ZONE = BUSINESS_TIME_ZONE;

/** Statuses in which the timer counts down; every other status shows a frozen value. */
export const SLA_RUNNING_STATUSES: readonly ProjectStatus[] = ['WAITING_FOR_EDITOR', 'IN_EDITING'];

export const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;
/** Bound for each memo table, so a long-lived server cannot grow them without limit. */
const CACHE_LIMIT = 50_000;

// ---------------------------------------------------------------------------------------
// New York offsets.
//
// Day-by-day iteration needs the instant at which each New York calendar day begins, and
// formatting through Intl for every day of every row would be slow on the server (100,000
// rows over months). So offsets are looked up once per UTC day and memoized: the offset at
// the UTC day's start and end, and if they differ, the exact second of the switch (found by
// bisection). This assumes at most one offset change per UTC day, which holds for New York
// throughout the tz database (changes are months apart).
// ---------------------------------------------------------------------------------------

const formatter = new Intl.DateTimeFormat('en-US', {
  timeZone: SLA_TIME_ZONE,
  hourCycle: 'h23',
  era: 'short',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

/** Offset (local wall time minus UTC, in ms) in New York at instant `ms`, straight from Intl. */
function intlOffset(ms: number): number {
  const whole = ms - (((ms % 1000) + 1000) % 1000); // Intl has second resolution
  let year = 0;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let bc = false;
  for (const part of formatter.formatToParts(whole)) {
    switch (part.type) {
      case 'year':
        year = Number(part.value);
        break;
      case 'month':
        month = Number(part.value);
        break;
      case 'day':
        day = Number(part.value);
        break;
      case 'hour':
        hour = Number(part.value) % 24;
        break; // some engines print 24 for midnight
      case 'minute':
        minute = Number(part.value);
        break;
      case 'second':
        second = Number(part.value);
        break;
      case 'era':
        bc = part.value.startsWith('B');
        break;
      default:
        break;
    }
  }
  // setUTCFullYear rather than Date.UTC, which maps years 0–99 to 1900–1999.
  const wall = new Date(0);
  wall.setUTCFullYear(bc ? 1 - year : year, month - 1, day);
  wall.setUTCHours(hour, minute, second, 0);
  return wall.getTime() - whole;
}

interface UtcDayOffsets {
  before: number;
  after: number;
  /** First instant using `after`; +Infinity when the offset is constant all day. */
  switchAt: number;
}

const utcDayOffsets = new Map<number, UtcDayOffsets>();

function offsetsOfUtcDay(utcDay: number): UtcDayOffsets {
  const cached = utcDayOffsets.get(utcDay);
  if (cached) return cached;
  const start = utcDay * MS_PER_DAY;
  const before = intlOffset(start);
  const after = intlOffset(start + MS_PER_DAY);
  let switchAt = Number.POSITIVE_INFINITY;
  if (before !== after) {
    // Bisect on whole seconds: lo keeps `before`, hi does not.
    let lo = start;
    let hi = start + MS_PER_DAY;
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (intlOffset(mid) === before) lo = mid;
      else hi = mid;
    }
    switchAt = hi;
  }
  const entry = { before, after, switchAt };
  if (utcDayOffsets.size >= CACHE_LIMIT) utcDayOffsets.clear();
  utcDayOffsets.set(utcDay, entry);
  return entry;
}

function offsetAt(ms: number): number {
  const day = offsetsOfUtcDay(Math.floor(ms / MS_PER_DAY));
  return ms < day.switchAt ? day.before : day.after;
}

/** New York calendar day of an instant, as days since 1970-01-01. */
function localDayNumber(ms: number): number {
  return Math.floor((ms + offsetAt(ms)) / MS_PER_DAY);
}

/** 0 = Sunday … 6 = Saturday; day 0 (1970-01-01) was a Thursday. */
function weekdayOf(dayNumber: number): number {
  return (((dayNumber + 4) % 7) + 7) % 7;
}

const dayStarts = new Map<number, number>();

/** The first instant of New York calendar day `dayNumber` (its real start, DST included). */
function startOfLocalDay(dayNumber: number): number {
  const cached = dayStarts.get(dayNumber);
  if (cached !== undefined) return cached;
  const wallMidnight = dayNumber * MS_PER_DAY;
  let start = wallMidnight - offsetAt(wallMidnight);
  start = wallMidnight - offsetAt(start);
  if (localDayNumber(start) !== dayNumber || localDayNumber(start - 1) >= dayNumber) {
    // Midnight itself does not exist (a switch at 00:00): the day starts at the first
    // instant whose local date is `dayNumber`. Never the case in New York, kept for safety.
    let lo = wallMidnight - 2 * MS_PER_DAY;
    let hi = wallMidnight + 2 * MS_PER_DAY;
    while (hi - lo > 1) {
      const mid = lo + Math.floor((hi - lo) / 2);
      if (localDayNumber(mid) >= dayNumber) hi = mid;
      else lo = mid;
    }
    start = hi;
  }
  if (dayStarts.size >= CACHE_LIMIT) dayStarts.clear();
  dayStarts.set(dayNumber, start);
  return start;
}

// ---------------------------------------------------------------------------------------
// Business time.
// ---------------------------------------------------------------------------------------

/** True when New York day `dayNumber` is a holiday of `calendar` (weekends are not asked). */
function isHoliday(calendar: BusinessCalendar, dayNumber: number): boolean {
  return calendar.holidayOnDay(dayNumber) !== null;
}

/** True when none of the five weekdays from Monday `monday` is a holiday. */
function wholeWorkWeek(calendar: BusinessCalendar, monday: number): boolean {
  for (let day = monday; day < monday + 5; day += 1) if (isHoliday(calendar, day)) return false;
  return true;
}

/**
 * Real milliseconds of [start, end) that fall on business days: Monday–Friday New York
 * calendar days that are not holidays of `calendar`; 0 when end <= start or either date is
 * invalid. A business day lasts as long as it really does (23 or 25 hours on a DST switch day,
 * wherever the rules put one). Exactly additive: f(a, c) = f(a, b) + f(b, c) for a <= b <= c.
 */
export function businessMillisecondsBetween(start: Date, end: Date, calendar: BusinessCalendar): number {
  const s = start.getTime();
  const e = end.getTime();
  if (!(e > s)) return 0; // also false for NaN
  let dayNumber = localDayNumber(s);
  let dayStart = startOfLocalDay(dayNumber);
  let total = 0;
  while (dayStart < e) {
    const weekday = weekdayOf(dayNumber);
    if (weekday === 6 || weekday === 0) {
      dayNumber += weekday === 6 ? 2 : 1;
      dayStart = startOfLocalDay(dayNumber);
      continue;
    }
    if (isHoliday(calendar, dayNumber)) {
      dayNumber += 1;
      dayStart = startOfLocalDay(dayNumber);
      continue;
    }
    if (weekday === 1 && dayStart >= s) {
      // A whole Monday–Sunday week inside the span, with no holiday, counts Monday 00:00 to
      // Saturday 00:00 (a week with one goes day by day).
      const nextMonday = startOfLocalDay(dayNumber + 7);
      if (nextMonday <= e && wholeWorkWeek(calendar, dayNumber)) {
        total += startOfLocalDay(dayNumber + 5) - dayStart;
        dayNumber += 7;
        dayStart = nextMonday;
        continue;
      }
    }
    const nextDayStart = startOfLocalDay(dayNumber + 1);
    total += Math.min(e, nextDayStart) - Math.max(s, dayStart);
    dayNumber += 1;
    dayStart = nextDayStart;
  }
  return total;
}

/**
 * Whole real minutes of [start, end) that fall on business days (the business milliseconds,
 * rounded down); 0 when end <= start. Whole minutes so that the server can add the result to an
 * integer `totalPausedMinutes` column.
 */
export function businessMinutesBetween(start: Date, end: Date, calendar: BusinessCalendar): number {
  return Math.floor(businessMillisecondsBetween(start, end, calendar) / MS_PER_MINUTE);
}

// ---------------------------------------------------------------------------------------
// The timer.
// ---------------------------------------------------------------------------------------

export interface SlaInput {
  status: ProjectStatus;
  /** When the project was (last) submitted; the countdown starts here. ISO strings with an offset or Z. */
  latestSubmittedAt: Date | string | null;
  /** When the timer was last frozen; the server sets it whenever the project leaves a running status. */
  pausedAt: Date | string | null;
  /** Business minutes already spent paused (the server adds `businessMinutesBetween(pausedAt, resumedAt)` on resume). */
  totalPausedMinutes: number | null;
}

export interface SlaTimer {
  /** Signed whole minutes left; negative when overdue. Never above SLA_MINUTES. */
  minutes: number;
  /** `minutes` as HH:MM, e.g. "48:00", "07:05", "-03:15". */
  text: string;
  /** True when the value changes as time passes (a running status with a submission time). */
  running: boolean;
  overdue: boolean;
}

/** True for the statuses in which the countdown runs: IN_EDITING and WAITING_FOR_EDITOR. */
export function isSlaRunning(status: ProjectStatus): boolean {
  return SLA_RUNNING_STATUSES.includes(status);
}

function toInstant(value: Date | string | null | undefined): Date | null {
  if (value == null || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function pausedMinutesOf(value: number | null | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

/**
 * Signed whole minutes left on the SLA at `now`:
 * SLA_MINUTES − (businessMinutesBetween(latestSubmittedAt, end) − totalPausedMinutes),
 * where end is `now` in a running status and `pausedAt` in any other. Elapsed time is counted
 * in whole minutes, so the value drops by one at each full business minute, like a clock.
 *
 * Decisions for incomplete data (the UI must not crash or invent elapsed time):
 * - OPENED (not published) always shows the full 48:00.
 * - No (or an unparsable) `latestSubmittedAt`: nothing has been submitted, so nothing has
 *   elapsed: 48:00, whatever the status.
 * - A frozen status without `pausedAt`: the server always sets it when a project leaves a
 *   running status, so this is missing data. We show the full 48:00 with nothing elapsed
 *   rather than guess a freeze point (freezing at `now` would make the value drift with the
 *   clock, and any other instant would be invented).
 * - `pausedAt` before `latestSubmittedAt` (a pause left over from an earlier submission)
 *   counts as nothing elapsed.
 * - Paused minutes never lift the value above 48:00 (the budget is the maximum); a missing,
 *   negative or non-finite `totalPausedMinutes` counts as 0.
 */
export function slaRemainingMinutes(input: SlaInput, now: Date, calendar: BusinessCalendar): number {
  if (input.status === 'OPENED') return SLA_MINUTES;
  const submittedAt = toInstant(input.latestSubmittedAt);
  if (!submittedAt) return SLA_MINUTES;
  const end = isSlaRunning(input.status) ? now : toInstant(input.pausedAt);
  if (!end) return SLA_MINUTES;
  const elapsed = businessMinutesBetween(submittedAt, end, calendar) - pausedMinutesOf(input.totalPausedMinutes);
  return Math.min(SLA_MINUTES, SLA_MINUTES - elapsed);
}

/**
 * Formats signed minutes as HH:MM with at least two hour digits: "48:00", "07:05", "-00:01",
 * "-120:05". Fractions are truncated toward zero; a non-finite value is a programming error.
 */
export function formatSlaMinutes(minutes: number): string {
  if (!Number.isFinite(minutes)) throw new RangeError(`SLA minutes must be finite, got ${minutes}`);
  const whole = Math.trunc(minutes);
  const abs = Math.abs(whole);
  const hours = String(Math.floor(abs / 60)).padStart(2, '0');
  const mins = String(abs % 60).padStart(2, '0');
  return `${whole < 0 ? '-' : ''}${hours}:${mins}`;
}

/** Everything a timer cell needs, computed once. Sort by `minutes` (ascending = most urgent first). */
export function slaTimer(input: SlaInput, now: Date, calendar: BusinessCalendar): SlaTimer {
  const minutes = slaRemainingMinutes(input, now, calendar);
  return {
    minutes,
    text: formatSlaMinutes(minutes),
    running: isSlaRunning(input.status) && toInstant(input.latestSubmittedAt) !== null,
    overdue: minutes < 0,
  };
}

/** True on Saturday and Sunday in New York. */
export function isWeekendAt(now: Date): boolean {
  const weekday = weekdayOf(localDayNumber(now.getTime()));
  return weekday === 0 || weekday === 6;
}

/** The name of the holiday `now` falls on in New York, or null (weekends are no holidays). */
export function holidayAt(now: Date, calendar: BusinessCalendar): string | null {
  if (isWeekendAt(now)) return null;
  return calendar.holidayOnDay(localDayNumber(now.getTime()));
}

/** True on a business day in New York (Monday–Friday, no holiday): the SLA counts, the digest goes out. */
export function isBusinessDayAt(now: Date, calendar: BusinessCalendar): boolean {
  return !isWeekendAt(now) && holidayAt(now, calendar) === null;
}

export type SlaPauseReason = 'weekend' | 'holiday' | 'paused';

/**
 * Why a timer shown in a running status stands still (issue 12, issue 36 item 11): 'weekend' or
 * 'holiday' while a running project's countdown is frozen on a day that is no business day,
 * 'paused' for a PAUSED project, else null.
 */
export function slaPauseReason(input: Pick<SlaInput, 'status'>, now: Date, calendar: BusinessCalendar): SlaPauseReason | null {
  if (input.status === 'PAUSED') return 'paused';
  if (!isSlaRunning(input.status)) return null;
  if (isWeekendAt(now)) return 'weekend';
  return holidayAt(now, calendar) !== null ? 'holiday' : null;
}

/**
 * A business-time clock: business milliseconds since Monday 2024-01-01 00:00 New York time.
 * For a running project the cell shows SLA_MINUTES + paused − ⌊(clock(now) − clock(submitted))
 * / 1 min⌋ = ⌈(deadline − clock(now)) / 1 min⌉ with deadline = clock(submitted) + (paused +
 * SLA_MINUTES) minutes, so the server keeps that deadline in a column and sorts every project
 * by its timer in SQL with a single clock(now) parameter. Milliseconds, not minutes: a deadline
 * rounded to the minute ties projects submitted seconds apart, and the tie broken by id could
 * put a 47:58 above a 47:59 (the flaky dashboard sort of stop 18).
 * The clock counts the holidays of `calendar` out too: editing the calendar changes the clock
 * from the edited date on, so the server stores every deadline again in the edit's transaction.
 */
const CLOCK_EPOCH = new Date('2024-01-01T05:00:00Z');

export function businessClock(at: Date, calendar: BusinessCalendar): number {
  return businessMillisecondsBetween(CLOCK_EPOCH, at, calendar);
}

export interface SlaSortKey {
  /** For running projects: the businessClock value (milliseconds) at which the timer reaches 00:00. */
  deadline: number | null;
  /** For frozen projects (and running ones without a submission): the minutes shown. */
  frozen: number;
}

/** The two stored values from which SQL computes every project's timer (see businessClock). */
export function slaSortKey(input: SlaInput, now: Date, calendar: BusinessCalendar): SlaSortKey {
  const submitted = input.latestSubmittedAt ? new Date(input.latestSubmittedAt) : null;
  if (isSlaRunning(input.status) && submitted && !Number.isNaN(submitted.getTime())) {
    return { deadline: businessClock(submitted, calendar) + (pausedMinutesOf(input.totalPausedMinutes) + SLA_MINUTES) * MS_PER_MINUTE, frozen: SLA_MINUTES };
  }
  return { deadline: null, frozen: slaRemainingMinutes(input, now, calendar) };
}
