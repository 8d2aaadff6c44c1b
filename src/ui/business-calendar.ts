import { createContext, useContext } from 'react';
import { US_FEDERAL_CALENDAR, type BusinessCalendar } from '@/domain/holiday-calendar.ts';

/**
 * The holiday calendar the timers count on (issue 36 item 11). The portals provide the one the
 * server has (src/shared/business-calendar/); until it arrives, and outside the portals, the
 * default US federal holidays.
 */
export const BusinessCalendarContext = createContext<BusinessCalendar>(US_FEDERAL_CALENDAR);

export function useBusinessCalendar(): BusinessCalendar {
  return useContext(BusinessCalendarContext);
}
