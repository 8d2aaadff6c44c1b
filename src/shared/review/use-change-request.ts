import { useQuery } from '@/lib/query.ts';
import { listComments } from './api/list-comments.ts';
import { listVersions } from './api/list-versions.ts';
import { reviewKeys } from './keys.ts';
import { openCount, sortThreads } from './review-logic.ts';

/**
 * What a change request sends the editor: the open threads of the current version (the same
 * reads as the panel's, so one request serves both). `current` is null for a project whose
 * version predates frame-accurate review (its feedback goes through the review link).
 */
export function useChangeRequest(projectId: number) {
  const versions = useQuery({ queryKey: reviewKeys.versions(projectId), queryFn: () => listVersions(projectId) });
  const current = versions.data?.find((v) => v.current) ?? null;
  const comments = useQuery({
    queryKey: reviewKeys.comments(projectId, current?.number ?? 0),
    queryFn: () => listComments(projectId, current!.number),
    enabled: current !== null,
  });
  const open = sortThreads(comments.data?.comments ?? []).filter((t) => !t.resolved && !t.deleted);
  return {
    current,
    openThreads: open,
    openComments: openCount(comments.data?.comments ?? []),
    loading: versions.isPending || (current !== null && comments.isPending),
  };
}
