import { api } from '@/lib/api-client.ts';

export async function deleteComment(projectId: number, commentId: number): Promise<void> {
  await api('DELETE', `/projects/${projectId}/comments/${commentId}`);
}
