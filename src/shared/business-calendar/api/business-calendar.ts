import { BusinessCalendarStruct, type AddHolidayBody } from '@/domain/contract/holidays.ts';
import { api } from '@/lib/api-client.ts';

/** The holiday calendar: every timer reads it; a superadmin's edits answer it (issue 36 item 11). */
export const businessCalendarKey = () => ['business-calendar'] as const;

/** GET business-calendar. */
export function getBusinessCalendar() {
  return api('GET', '/business-calendar', { struct: BusinessCalendarStruct });
}

/** POST business-calendar/holidays (superadmins). */
export function addHoliday(body: AddHolidayBody) {
  return api('POST', '/business-calendar/holidays', { body, struct: BusinessCalendarStruct });
}

/** DELETE business-calendar/holidays/{date} (superadmins): an added date goes, a default one is removed. */
export function removeHoliday(date: string) {
  return api('DELETE', `/business-calendar/holidays/${encodeURIComponent(date)}`, { struct: BusinessCalendarStruct });
}

/** POST business-calendar/holidays/{date}/restore (superadmins). */
export function restoreHoliday(date: string) {
  return api('POST', `/business-calendar/holidays/${encodeURIComponent(date)}/restore`, { struct: BusinessCalendarStruct });
}
