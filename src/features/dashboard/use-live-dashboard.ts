import { useEffect } from 'react';
import { operationPath } from '@/domain/contract/define.ts';
import { dashboardEvents } from '@/domain/contract/events.ts';
import { openLiveStream } from '@/lib/live-stream.ts';
import { useQueryClient } from '@/lib/query.ts';
import { businessCalendarKey } from '@/shared/business-calendar/api/business-calendar.ts';
import { queryKeys } from '@/shared/query/keys.ts';
import { getDashboardEventsTicket } from './api/get-events-ticket.ts';
import { dashboardKeys } from './api/keys.ts';

/** Status changes come in bursts (the review auto-complete, a busy morning): one read per half second. */
const DEBOUNCE_MS = 500;

/**
 * Live staff dashboard: any project's status, assignment or new project reads the loaded pages
 * of the dashboard again (its rows update in place), and so does a reopened stream after a
 * network drop (catch-up). A change of names shown with projects (an editor's name or picture,
 * an organization's: `projectId` null) reads the editor picker's list again too, and the holiday
 * calendar (an edit of it is announced the same way).
 */
export function useLiveDashboard(): void {
  const client = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let names = false;
    const refresh = (namesToo = false) => {
      names ||= namesToo;
      clearTimeout(timer);
      timer = setTimeout(() => {
        void client.invalidateQueries({ queryKey: queryKeys.dashboard() });
        if (names) {
          void client.invalidateQueries({ queryKey: dashboardKeys.assignableEditors() });
          // A holiday calendar edit is such a change too: the timers count on the new calendar.
          void client.invalidateQueries({ queryKey: businessCalendarKey() });
        }
        names = false;
      }, DEBOUNCE_MS);
    };
    const stop = openLiveStream({
      ticket: getDashboardEventsTicket,
      url: (ticket) => `/api/v1${operationPath(dashboardEvents.path)}?ticket=${encodeURIComponent(ticket)}`,
      onEvent: (event) => refresh(event.projectId === null),
      onCatchUp: () => refresh(true),
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [client]);
}
