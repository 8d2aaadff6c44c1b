import type { UpdateCommentBody } from '@/domain/contract/review.ts';
import { useMutation, useQueryClient } from '@/lib/query.ts';
import { createComment } from './api/create-comment.ts';
import { deleteComment } from './api/delete-comment.ts';
import { updateComment } from './api/update-comment.ts';
import { reviewKeys } from './keys.ts';

/** Create, change and delete comments of one version; each refreshes that version's threads. */
export function useCommentActions(projectId: number, version: number) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: reviewKeys.comments(projectId, version) });
  const create = useMutation({ mutationFn: (body: Parameters<typeof createComment>[1]) => createComment(projectId, body), onSuccess: refresh });
  const update = useMutation({ mutationFn: ({ id, body }: { id: number; body: UpdateCommentBody }) => updateComment(projectId, id, body), onSuccess: refresh });
  const remove = useMutation({ mutationFn: (id: number) => deleteComment(projectId, id), onSuccess: refresh });
  return { create, update, remove };
}
