import { CommentListStruct } from '@/domain/contract/review.ts';
import { api } from '@/lib/api-client.ts';

export function listComments(projectId: number, version: number) {
  return api('GET', `/projects/${projectId}/comments`, { query: { version }, struct: CommentListStruct });
}
