import { QueryClient } from '@tanstack/react-query';
import { isClientError } from './api-error.ts';

/**
 * The app's one door to TanStack Query (lint bans importing it anywhere else), as state.ts is
 * for jotai: every server read and mutation of the pages goes through these hooks, so loading,
 * errors, deduplication, retries and invalidation after a change are written once.
 */
export { QueryClientProvider, keepPreviousData, useMutation, useQuery, useQueryClient, useInfiniteQuery } from '@tanstack/react-query';

/** How often a read that failed on the network or the server is tried again before it shows its error. */
const RETRIES = 2;

/** A 4xx is the server's answer (not found, not allowed, bad input): it is shown at once, never retried. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return !isClientError(error) && failureCount < RETRIES;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: shouldRetry,
      // Pages opened twice within this time show the answer they have without asking again.
      staleTime: 10_000,
      // Always run the query function, even when the browser says it is offline: the API client
      // answers from the offline copy then (lib/offline-cache.ts) and marks the app offline.
      networkMode: 'always',
    },
    mutations: { retry: false, networkMode: 'always' },
  },
});
