import { useEffect } from 'react';
import { operationPath } from '@/domain/contract/define.ts';
import { projectEvents } from '@/domain/contract/events.ts';
import type { CommentList } from '@/domain/contract/review.ts';
import { ApiError } from '@/lib/api-client.ts';
import { openLiveStream } from '@/lib/live-stream.ts';
import { useQueryClient } from '@/lib/query.ts';
import { queryKeys } from '@/shared/query/keys.ts';
import { getProjectEventsTicket } from './api/get-events-ticket.ts';
import { getThread } from './api/get-thread.ts';
import { reviewKeys } from './keys.ts';
import { withThread, withoutComment } from './review-logic.ts';

/** Events that come in a burst (a thread resolved with its replies) are read once. */
const DEBOUNCE_MS = 300;

/**
 * Live updates of a project page (customer and staff): while the page is open, a new comment,
 * reply, resolve or status change by anyone shows without a reload. A comment event names the
 * comment, so the page reads that one thread and puts it in the list it holds (a version holds up
 * to 500 comments, and every open page would otherwise read them all at the same instant); a
 * status change, or an event without a comment, refreshes everything under `queryKeys.project(id)`.
 * After a network drop the stream reopens and reads all of it again (catch-up).
 */
export function useProjectEvents(projectId: number): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!Number.isSafeInteger(projectId) || projectId <= 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let dashboardToo = false;
    let stopped = false;
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
    // One thread read at a time, in the events' order, so an older answer never lands on a newer one.
    let threads = Promise.resolve();
    const readThread = (commentId: number) => {
      threads = threads.then(async () => {
        if (stopped) return;
        try {
          const thread = await getThread(projectId, commentId);
          client.setQueryData<CommentList>(reviewKeys.comments(projectId, thread.version), (list) => list && withThread(list, thread));
        } catch (error) {
          // The thread is gone (deleted with no reply left): out of every list that shows it.
          if (error instanceof ApiError && error.status === 404)
            client.setQueriesData<CommentList>({ queryKey: reviewKeys.allComments(projectId) }, (list) => list && withoutComment(list, commentId));
          else refresh(false);
        }
      });
    };
    const stop = openLiveStream({
      ticket: () => getProjectEventsTicket(projectId),
      url: (ticket) => `/api/v1${operationPath(projectEvents.path, { id: projectId })}?ticket=${encodeURIComponent(ticket)}`,
      onEvent: (event) => (event.type === 'comment' && event.commentId !== undefined ? readThread(event.commentId) : refresh(event.type === 'project')),
      onCatchUp: () => refresh(true),
    });
    return () => {
      stopped = true;
      stop();
      clearTimeout(timer);
    };
  }, [client, projectId]);
}
