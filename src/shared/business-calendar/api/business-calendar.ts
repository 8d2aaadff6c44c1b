import * as operations from '@/domain/contract/holidays.ts';
import type { AddHolidayBody } from '@/domain/contract/holidays.ts';
import { call } from '@/lib/api-client.ts';

/** The holiday calendar: every timer reads it; a superadmin's edits answer it (issue 36 item 11). */
export const businessCalendarKey = () => ['business-calendar'] as const;

export function getBusinessCalendar() {
  return call(operations.getBusinessCalendar);
}

/** Superadmins only. */
export function addHoliday(body: AddHolidayBody) {
  return call(operations.addHoliday, { body });
}

/** Superadmins only: an added date goes, a default one is removed. */
export function removeHoliday(date: string) {
  return call(operations.removeHoliday, { params: { date } });
}

/** Superadmins only. */
export function restoreHoliday(date: string) {
  return call(operations.restoreHoliday, { params: { date } });
}
