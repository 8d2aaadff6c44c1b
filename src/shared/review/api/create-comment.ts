import { CommentStruct, type CreateCommentBody } from '@/domain/contract/review.ts';
import type { Drawing } from '@/domain/drawing.ts';
import { api } from '@/lib/api-client.ts';

/** The body of a new thread (frame, optional endFrame and drawing) or of a reply (parentId). */
export type NewCommentBody = Omit<CreateCommentBody, 'drawing'> & { drawing?: Drawing | null };

export function createComment(projectId: number, body: NewCommentBody) {
  return api('POST', `/projects/${projectId}/comments`, { body, struct: CommentStruct });
}
