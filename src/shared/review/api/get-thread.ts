import { ThreadStruct } from '@/domain/contract/review.ts';
import { api } from '@/lib/api-client.ts';

/** The thread of one comment (itself or its parent), with its replies: a live update reads this, not the list. */
export function getThread(projectId: number, commentId: number) {
  return api('GET', `/projects/${projectId}/comments/${commentId}`, { struct: ThreadStruct });
}
