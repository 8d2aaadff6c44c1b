import { useEffect } from 'react';
import { openLiveStream } from '@/lib/live-stream.ts';
import { useQueryClient } from '@/lib/query.ts';
import { queryKeys } from '@/shared/query/keys.ts';
import { getDashboardEventsTicket } from './api/get-events-ticket.ts';

/** Status changes come in bursts (the review auto-complete, a busy morning): one read per half second. */
const DEBOUNCE_MS = 500;

/**
 * Live staff dashboard: any project's status, assignment or new project reads the loaded pages
 * of the dashboard again (its rows update in place), and so does a reopened stream after a
 * network drop (catch-up).
 */
export function useLiveDashboard(): void {
  const client = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void client.invalidateQueries({ queryKey: queryKeys.dashboard() }), DEBOUNCE_MS);
    };
    const stop = openLiveStream({
      ticket: getDashboardEventsTicket,
      url: (ticket) => `/api/v1/dashboard/events?ticket=${encodeURIComponent(ticket)}`,
      onEvent: refresh,
      onCatchUp: refresh,
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [client]);
}
