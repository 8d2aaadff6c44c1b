import { useMemo, type ReactNode } from 'react';
import { US_FEDERAL_CALENDAR, businessCalendar } from '@/domain/holiday-calendar.ts';
import { useQuery } from '@/lib/query.ts';
import { meAtom } from '@/lib/session-state.ts';
import { useAtomValue } from '@/lib/state.ts';
import { BusinessCalendarContext } from '@/ui/business-calendar.ts';
import { businessCalendarKey, getBusinessCalendar } from './api/business-calendar.ts';

/**
 * How often an open page reads the calendar again: a superadmin's edit reaches every browser
 * within this time (the staff board at once: it reads it again on the edit's live event).
 */
const REFRESH_MS = 60_000;

/** Gives the portal's timers the server's holiday calendar (the federal default until it is read). */
export function BusinessCalendarProvider({ children }: { children: ReactNode }) {
  // Read once signed in (the call needs a session).
  const signedIn = useAtomValue(meAtom) !== null;
  const { data } = useQuery({
    queryKey: businessCalendarKey(),
    queryFn: getBusinessCalendar,
    staleTime: REFRESH_MS,
    refetchInterval: REFRESH_MS,
    enabled: signedIn,
  });
  const edits = data?.edits;
  const calendar = useMemo(() => (edits ? businessCalendar(edits) : US_FEDERAL_CALENDAR), [edits]);
  return <BusinessCalendarContext.Provider value={calendar}>{children}</BusinessCalendarContext.Provider>;
}
