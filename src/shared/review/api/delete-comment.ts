import * as operations from '@/domain/contract/review.ts';
import { call } from '@/lib/api-client.ts';

export async function deleteComment(projectId: number, commentId: number): Promise<void> {
  await call(operations.deleteComment, { params: { id: projectId, commentId } });
}
