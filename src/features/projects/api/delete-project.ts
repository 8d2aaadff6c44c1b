import { api } from '@/lib/api-client.ts';

export async function deleteProject(id: number): Promise<void> {
  await api('DELETE', `/projects/${id}`);
}
