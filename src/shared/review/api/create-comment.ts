import * as operations from '@/domain/contract/review.ts';
import type { CreateCommentBody } from '@/domain/contract/review.ts';
import type { Drawing } from '@/domain/drawing.ts';
import { call } from '@/lib/api-client.ts';

/** The body of a new thread (frame, optional endFrame and drawing) or of a reply (parentId). */
export type NewCommentBody = Omit<CreateCommentBody, 'drawing'> & { drawing?: Drawing | null };

export function createComment(projectId: number, body: NewCommentBody) {
  // The drawing's check types it `unknown`, which makes it a required key of CreateCommentBody; it is optional.
  return call(operations.createComment, { params: { id: projectId }, body: body as CreateCommentBody });
}
