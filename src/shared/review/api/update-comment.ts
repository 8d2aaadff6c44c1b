import { CommentStruct, type UpdateCommentBody } from '@/domain/contract/review.ts';
import { api } from '@/lib/api-client.ts';

/** New text (author) or resolve / reopen (thread). */
export function updateComment(projectId: number, commentId: number, body: UpdateCommentBody) {
  return api('PATCH', `/projects/${projectId}/comments/${commentId}`, { body, struct: CommentStruct });
}
