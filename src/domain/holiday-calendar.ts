/**
 * The holiday calendar (issue 36 item 11): which Monday–Friday dates in New York (the business
 * calendar's zone, src/domain/business-calendar.ts) are not business days. By default the US
 * federal holidays on the dates OPM observes them; a superadmin adds dates to it and removes
 * (and restores) default ones. Every timer, deadline and reminder that counts business time
 * takes a calendar (src/domain/sla-timer.ts, src/domain/review-mail.ts), so the browser, the
 * worker and every server instance count the same days. Pure: only `Date.UTC` arithmetic.
 *
 * Stored are the edits relative to the rule, not a list per year: the rule goes on for every
 * year without anyone adding next year's holidays (docs/decisions.md).
 */

const MS_PER_DAY = 86_400_000;

export const HOLIDAY_EDIT_KINDS = ['added', 'removed'] as const;
export type HolidayEditKind = (typeof HOLIDAY_EDIT_KINDS)[number];

/** One superadmin edit: a date added as a holiday (with its name), or a default holiday removed. */
export interface HolidayEdit {
  /** `YYYY-MM-DD` in the business zone; for a removed default, the date it is observed on. */
  date: string;
  name: string;
  kind: HolidayEditKind;
}

/** A holiday as the settings list shows it. */
export interface Holiday {
  date: string;
  name: string;
  /** `federal`: one of the default US federal holidays; `added`: a date a superadmin added. */
  source: 'federal' | 'added';
  /** A default holiday a superadmin removed: a business day again (it can be restored). */
  removed: boolean;
}

/** The longest name a holiday may have. */
export const HOLIDAY_NAME_MAX = 80;
/** Dates a holiday may be added on: far enough for any plan, near enough to refuse a typo. */
export const HOLIDAY_YEARS = { first: 2000, last: 2100 } as const;

// ---------------------------------------------------------------------------------------
// Dates as day numbers (days since 1970-01-01, the New York calendar date's number).
// ---------------------------------------------------------------------------------------

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day number of `YYYY-MM-DD`, or null when it is not a real date. */
export function dayNumberOfDate(date: string): number | null {
  const match = DATE_PATTERN.exec(date);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) return null;
  return Math.floor(at.getTime() / MS_PER_DAY);
}

/** `YYYY-MM-DD` of a day number. */
export function dateOfDayNumber(dayNumber: number): string {
  return new Date(dayNumber * MS_PER_DAY).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday; day 0 (1970-01-01) was a Thursday. */
export function weekdayOfDayNumber(dayNumber: number): number {
  return (((dayNumber + 4) % 7) + 7) % 7;
}

const yearOfDayNumber = (dayNumber: number) => new Date(dayNumber * MS_PER_DAY).getUTCFullYear();

function dayNumber(year: number, month: number, day: number): number {
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  return Math.floor(at.getTime() / MS_PER_DAY);
}

/** The `n`th `weekday` of the month (n = -1: the last). */
function nthWeekday(year: number, month: number, weekday: number, n: number): number {
  if (n > 0) {
    const first = dayNumber(year, month, 1);
    return first + ((weekday - weekdayOfDayNumber(first) + 7) % 7) + (n - 1) * 7;
  }
  const last = dayNumber(year, month + 1, 0);
  return last - ((weekdayOfDayNumber(last) - weekday + 7) % 7);
}

// ---------------------------------------------------------------------------------------
// The default: US federal holidays (5 U.S.C. 6103), observed as OPM observes them.
// ---------------------------------------------------------------------------------------

const MONDAY = 1;
const THURSDAY = 4;

/** Holidays on a fixed date move to the Friday before a Saturday and the Monday after a Sunday. */
function observed(day: number): { day: number; moved: boolean } {
  const weekday = weekdayOfDayNumber(day);
  if (weekday === 6) return { day: day - 1, moved: true };
  if (weekday === 0) return { day: day + 1, moved: true };
  return { day, moved: false };
}

/** The federal holidays of `year`'s rules, on their observed dates (New Year's Day may fall on the year before's 31 December). */
function federalHolidaysOfRuleYear(year: number): { day: number; name: string }[] {
  const fixed = (month: number, day: number, name: string) => {
    const at = observed(dayNumber(year, month, day));
    return { day: at.day, name: at.moved ? `${name} (observed)` : name };
  };
  return [
    fixed(1, 1, "New Year's Day"),
    { day: nthWeekday(year, 1, MONDAY, 3), name: 'Birthday of Martin Luther King, Jr.' },
    { day: nthWeekday(year, 2, MONDAY, 3), name: "Washington's Birthday" },
    { day: nthWeekday(year, 5, MONDAY, -1), name: 'Memorial Day' },
    // A federal holiday since 2021.
    ...(year >= 2021 ? [fixed(6, 19, 'Juneteenth National Independence Day')] : []),
    fixed(7, 4, 'Independence Day'),
    { day: nthWeekday(year, 9, MONDAY, 1), name: 'Labor Day' },
    { day: nthWeekday(year, 10, MONDAY, 2), name: 'Columbus Day' },
    fixed(11, 11, 'Veterans Day'),
    { day: nthWeekday(year, 11, THURSDAY, 4), name: 'Thanksgiving Day' },
    fixed(12, 25, 'Christmas Day'),
  ];
}

/** The default holidays observed in `year` (by date), oldest first. */
export function federalHolidays(year: number): { date: string; name: string }[] {
  return [...federalHolidaysOfRuleYear(year), ...federalHolidaysOfRuleYear(year + 1)]
    .filter((holiday) => yearOfDayNumber(holiday.day) === year)
    .sort((a, b) => a.day - b.day)
    .map((holiday) => ({ date: dateOfDayNumber(holiday.day), name: holiday.name }));
}

// ---------------------------------------------------------------------------------------
// A calendar: the default and its edits.
// ---------------------------------------------------------------------------------------

export interface BusinessCalendar {
  /** The edits it was made from (what the server stores and sends). */
  readonly edits: readonly HolidayEdit[];
  /** The holiday's name on New York day `dayNumber`, or null on a day that is no holiday. */
  holidayOnDay(dayNumber: number): string | null;
}

/** Years of holidays kept per calendar, so a long-lived process cannot grow it without limit. */
const YEAR_CACHE_LIMIT = 400;

/**
 * The calendar made of the default and `edits`. Each year's holidays are worked out once, on
 * first use, and kept (a day lookup is then a map lookup: the SLA arithmetic asks for every day).
 */
export function businessCalendar(edits: readonly HolidayEdit[]): BusinessCalendar {
  const removed = new Set(edits.filter((edit) => edit.kind === 'removed').map((edit) => edit.date));
  const added = edits.filter((edit) => edit.kind === 'added');
  const years = new Map<number, Map<number, string>>();
  const holidaysOf = (year: number) => {
    let days = years.get(year);
    if (days) return days;
    days = new Map();
    for (const holiday of federalHolidays(year)) if (!removed.has(holiday.date)) days.set(dayNumberOfDate(holiday.date)!, holiday.name);
    for (const edit of added) {
      const day = dayNumberOfDate(edit.date);
      if (day !== null && yearOfDayNumber(day) === year) days.set(day, edit.name);
    }
    if (years.size >= YEAR_CACHE_LIMIT) years.clear();
    years.set(year, days);
    return days;
  };
  return {
    edits,
    holidayOnDay: (day) => holidaysOf(yearOfDayNumber(day)).get(day) ?? null,
  };
}

/** The default calendar: US federal holidays, no edits. */
export const US_FEDERAL_CALENDAR: BusinessCalendar = businessCalendar([]);

/** Every holiday of `year` as the settings list shows it: the defaults (removed ones marked) and the added dates, by date. */
export function holidaysOfYear(calendar: BusinessCalendar, year: number): Holiday[] {
  const removed = new Set(calendar.edits.filter((edit) => edit.kind === 'removed').map((edit) => edit.date));
  const list: Holiday[] = federalHolidays(year).map((holiday) => ({ ...holiday, source: 'federal', removed: removed.has(holiday.date) }));
  for (const edit of calendar.edits) {
    if (edit.kind === 'added' && edit.date.startsWith(`${year}-`)) list.push({ date: edit.date, name: edit.name, source: 'added', removed: false });
  }
  return list.sort((a, b) => a.date.localeCompare(b.date));
}

export const HOLIDAY_MESSAGES = {
  notADate: 'Enter a date as YYYY-MM-DD.',
  outOfRange: `Choose a date from ${HOLIDAY_YEARS.first} to ${HOLIDAY_YEARS.last}.`,
  weekend: 'That date is a Saturday or a Sunday: it is not a business day anyway.',
  already: 'That date is already a holiday.',
  removedDefault: 'That date is a default holiday that was removed: restore it instead.',
  name: `Give the holiday a name (at most ${HOLIDAY_NAME_MAX} characters).`,
  noHoliday: 'There is no holiday on that date.',
  notRemoved: 'That date is not a removed default holiday.',
} as const;

/** Why `date` cannot be added to `calendar` as a holiday named `name`; null when it can. */
export function addHolidayProblem(calendar: BusinessCalendar, date: string, name: string): { field: 'date' | 'name'; message: string; conflict?: true } | null {
  const day = dayNumberOfDate(date);
  if (day === null) return { field: 'date', message: HOLIDAY_MESSAGES.notADate };
  const year = yearOfDayNumber(day);
  if (year < HOLIDAY_YEARS.first || year > HOLIDAY_YEARS.last) return { field: 'date', message: HOLIDAY_MESSAGES.outOfRange };
  const weekday = weekdayOfDayNumber(day);
  if (weekday === 0 || weekday === 6) return { field: 'date', message: HOLIDAY_MESSAGES.weekend };
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > HOLIDAY_NAME_MAX) return { field: 'name', message: HOLIDAY_MESSAGES.name };
  if (calendar.holidayOnDay(day) !== null) return { field: 'date', message: HOLIDAY_MESSAGES.already, conflict: true };
  if (calendar.edits.some((edit) => edit.kind === 'removed' && edit.date === date))
    return { field: 'date', message: HOLIDAY_MESSAGES.removedDefault, conflict: true };
  return null;
}

/** Whether `date` is one of the default holidays (on its observed date). */
export function isFederalHoliday(date: string): boolean {
  const day = dayNumberOfDate(date);
  if (day === null) return false;
  return federalHolidays(yearOfDayNumber(day)).some((holiday) => holiday.date === date);
}
