import { useInfiniteQuery } from '@/lib/query.ts';

/**
 * One of the onboarding lists, each with its own "get more" (A§2). It loads when its tab is
 * first opened (`enabled`) and keeps its rows when another tab is shown.
 */
export function usePaged<T extends { id: number }>(queryKey: readonly unknown[], fetch: (start: number) => Promise<T[]>, pageSize: number, enabled: boolean) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetch(pageParam),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.length === pageSize ? pages.reduce((n, page) => n + page.length, 0) : undefined),
    enabled,
  });
  // A row that moved between pages while paging is listed once; a list that failed shows as empty.
  const rows = query.data ? query.data.pages.flat().filter((row, i, all) => all.findIndex((r) => r.id === row.id) === i) : query.isError ? [] : null;
  return { rows, full: query.hasNextPage, busy: query.isFetchingNextPage, error: query.error, more: () => void query.fetchNextPage() };
}
