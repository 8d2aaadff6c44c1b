import { BUSINESS_TIME_ZONE, businessToday } from '../../src/domain/business-calendar.ts';
import type { BusinessCalendarAnswer } from '../../src/domain/contract/holidays.ts';
import {
  HOLIDAY_MESSAGES,
  addHolidayProblem,
  dayNumberOfDate,
  holidaysOfYear,
  isFederalHoliday,
  type BusinessCalendar,
} from '../../src/domain/holiday-calendar.ts';
import type { Db } from '../db/connect.ts';
import { publishChange } from '../events/bus.ts';
import { badRequest, conflict, notFound } from '../http-error.ts';
import { bumpBoardVersion } from '../repositories/dashboard.ts';
import { holidaysRepo } from '../repositories/holidays.ts';
import { projectsRepo } from '../repositories/projects.ts';

/** GET business-calendar: the edits a client builds the calendar from, and this year's and next year's holidays. */
export function calendarAnswer(calendar: BusinessCalendar, now = new Date()): BusinessCalendarAnswer {
  const year = Number(businessToday(now).slice(0, 4));
  return {
    timeZone: BUSINESS_TIME_ZONE,
    edits: calendar.edits.map(({ date, name, kind }) => ({ date, name, kind })),
    years: [year, year + 1].map((y) => ({ year: y, holidays: holidaysOfYear(calendar, y) })),
  };
}

export async function readCalendar(db: Db): Promise<BusinessCalendarAnswer> {
  return calendarAnswer(await holidaysRepo(db).calendar());
}

/** A path's date: a real `YYYY-MM-DD` or 404 (it cannot name a holiday). */
function dateParam(date: string): string {
  if (dayNumberOfDate(date) === null) throw notFound(HOLIDAY_MESSAGES.noHoliday);
  return date;
}

/**
 * One edit of the calendar, in one transaction with the SLA keys it changes: `write` records the
 * edit, then every project with a timer is locked and its stored deadline (and frozen minutes)
 * counted again on the new calendar, so the board's SQL sort never mixes two calendars. The
 * board's version moves (migration 0017: pages kept in memory are read again, also when no key
 * changed, since the clock the running timers are compared with did), and after the commit every
 * open board and page hears `{ type: 'project', projectId: null }` and reads again (the calendar
 * too). Other instances read the edits where they count (server/repositories/holidays.ts).
 */
async function edit(db: Db, write: (tx: Db, calendar: BusinessCalendar) => Promise<void>): Promise<BusinessCalendarAnswer> {
  const answer = await db.transaction().execute(async (tx) => {
    await write(tx, await holidaysRepo(tx).calendar());
    await projectsRepo(tx).storeSlaKeysAfterCalendarEdit(new Date());
    await bumpBoardVersion(tx);
    return calendarAnswer(await holidaysRepo(tx).calendar());
  });
  await publishChange(db, { type: 'project', projectId: null });
  return answer;
}

/** POST business-calendar/holidays: a weekday that is no holiday yet becomes one (400 on a bad field, 409 when it already is one). */
export function addHoliday(db: Db, userId: number, date: string, name: string): Promise<BusinessCalendarAnswer> {
  return edit(db, async (tx, calendar) => {
    const problem = addHolidayProblem(calendar, date, name);
    if (problem?.conflict) throw conflict(problem.message, { fields: { [problem.field]: problem.message } });
    if (problem) throw badRequest(problem.message, { fields: { [problem.field]: problem.message } });
    await holidaysRepo(tx).put({ date, name: name.trim(), kind: 'added' }, userId);
  });
}

/** DELETE business-calendar/holidays/{date}: an added date goes, a default holiday is marked removed (404 when the date is no holiday). */
export function removeHoliday(db: Db, userId: number, date: string): Promise<BusinessCalendarAnswer> {
  return edit(db, async (tx, calendar) => {
    const day = dayNumberOfDate(dateParam(date))!;
    const name = calendar.holidayOnDay(day);
    if (name === null) throw notFound(HOLIDAY_MESSAGES.noHoliday);
    if (await holidaysRepo(tx).delete(date, 'added')) return;
    if (!isFederalHoliday(date)) throw notFound(HOLIDAY_MESSAGES.noHoliday);
    await holidaysRepo(tx).put({ date, name, kind: 'removed' }, userId);
  });
}

/** POST business-calendar/holidays/{date}/restore: a removed default holiday is one again (404 when the date is none). */
export function restoreHoliday(db: Db, date: string): Promise<BusinessCalendarAnswer> {
  return edit(db, async (tx) => {
    if (!(await holidaysRepo(tx).delete(dateParam(date), 'removed'))) throw notFound(HOLIDAY_MESSAGES.notRemoved);
  });
}
