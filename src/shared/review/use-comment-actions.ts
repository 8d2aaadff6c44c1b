import type { UpdateCommentBody } from '@/domain/contract/review.ts';
import { useMutation, useQueryClient } from '@/lib/query.ts';
import type { NewCommentBody } from './api/create-comment.ts';
import type { ReviewSource } from './review-source.ts';

/** Create, change and delete comments of one version; each refreshes that version's threads. */
export function useCommentActions(source: ReviewSource, version: number) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: source.commentsKey(version) });
  const create = useMutation({ mutationFn: (body: NewCommentBody) => source.createComment(body), onSuccess: refresh });
  const update = useMutation({ mutationFn: ({ id, body }: { id: number; body: UpdateCommentBody }) => source.updateComment(id, body), onSuccess: refresh });
  const remove = useMutation({ mutationFn: (id: number) => source.deleteComment(id), onSuccess: refresh });
  return { create, update, remove };
}
