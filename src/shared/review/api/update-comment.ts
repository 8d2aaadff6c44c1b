import * as operations from '@/domain/contract/review.ts';
import type { UpdateCommentBody } from '@/domain/contract/review.ts';
import { call } from '@/lib/api-client.ts';

/** New text (author) or resolve / reopen (thread). */
export function updateComment(projectId: number, commentId: number, body: UpdateCommentBody) {
  return call(operations.updateComment, { params: { id: projectId, commentId }, body });
}
