import { useEffect } from 'react';
import { openLiveStream } from '@/lib/live-stream.ts';
import { useQueryClient } from '@/lib/query.ts';
import { queryKeys } from '@/shared/query/keys.ts';
import { getProjectEventsTicket } from './api/get-events-ticket.ts';

/** Events that come in a burst (a thread resolved with its replies) are read once. */
const DEBOUNCE_MS = 300;

/**
 * Live updates of a project page (customer and staff): while the page is open, a new comment,
 * reply, resolve or status change by anyone refreshes everything under `queryKeys.project(id)`
 * (the project, its versions, comments and assets) without a reload. After a network drop the
 * stream reopens and reads all of it again (catch-up).
 */
export function useProjectEvents(projectId: number): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!Number.isSafeInteger(projectId) || projectId <= 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let dashboardToo = false;
    const refresh = (project: boolean) => {
      dashboardToo ||= project;
      clearTimeout(timer);
      timer = setTimeout(() => {
        void client.invalidateQueries({ queryKey: queryKeys.project(projectId) });
        // A status change shows on the staff dashboard too (read again when next shown).
        if (dashboardToo) void client.invalidateQueries({ queryKey: queryKeys.dashboard() });
        dashboardToo = false;
      }, DEBOUNCE_MS);
    };
    const stop = openLiveStream({
      ticket: () => getProjectEventsTicket(projectId),
      url: (ticket) => `/api/v1/projects/${projectId}/events?ticket=${encodeURIComponent(ticket)}`,
      onEvent: (event) => refresh(event.type === 'project'),
      onCatchUp: () => refresh(true),
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [client, projectId]);
}
