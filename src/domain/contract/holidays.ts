import { array, boolean, enums, integer, object, string, type Infer } from 'superstruct';
import { defineOperation } from './define.ts';
import { HOLIDAY_EDIT_KINDS } from '../holiday-calendar.ts';

/**
 * Issue 36 item 11, the holiday calendar every timer, deadline and reminder counts business
 * days on: GET business-calendar (anyone signed in: the timers need it), and a superadmin's
 * edits. Each edit answers the calendar as it is after it.
 */
export const HolidayEditStruct = object({ date: string(), name: string(), kind: enums(HOLIDAY_EDIT_KINDS) });

export const HolidayStruct = object({
  date: string(),
  name: string(),
  /** `federal`: a default US federal holiday (on its observed date); `added`: a date a superadmin added. */
  source: enums(['federal', 'added']),
  /** A default holiday a superadmin removed: a business day again. */
  removed: boolean(),
});

export const BusinessCalendarStruct = object({
  /** The zone business days are dates in. */
  timeZone: string(),
  /** The edits relative to the US federal default: what a client builds the calendar from (src/domain/holiday-calendar.ts). */
  edits: array(HolidayEditStruct),
  /** This year's and next year's holidays (in the business zone), by date. */
  years: array(object({ year: integer(), holidays: array(HolidayStruct) })),
});
export type BusinessCalendarAnswer = Infer<typeof BusinessCalendarStruct>;

/** POST business-calendar/holidays: a date (`YYYY-MM-DD`, a weekday, not a holiday yet) and its name. */
export const AddHolidayBodyStruct = object({ date: string(), name: string() });
export type AddHolidayBody = Infer<typeof AddHolidayBodyStruct>;

export const getBusinessCalendar = defineOperation({ method: 'GET', path: '/business-calendar', access: 'signed-in', answer: BusinessCalendarStruct });
export const addHoliday = defineOperation({
  method: 'POST',
  path: '/business-calendar/holidays',
  access: 'superadmins',
  body: AddHolidayBodyStruct,
  answer: BusinessCalendarStruct,
  status: 201,
});
export const removeHoliday = defineOperation({
  method: 'DELETE',
  path: '/business-calendar/holidays/{date}',
  access: 'superadmins',
  answer: BusinessCalendarStruct,
});
export const restoreHoliday = defineOperation({
  method: 'POST',
  path: '/business-calendar/holidays/{date}/restore',
  access: 'superadmins',
  answer: BusinessCalendarStruct,
});
