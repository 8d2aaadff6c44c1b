import * as operations from '@/domain/contract/review.ts';
import { call } from '@/lib/api-client.ts';

/** The thread of one comment (itself or its parent), with its replies: a live update reads this, not the list. */
export function getThread(projectId: number, commentId: number) {
  return call(operations.getThread, { params: { id: projectId, commentId } });
}
