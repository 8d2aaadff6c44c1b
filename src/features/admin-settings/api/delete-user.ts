import { api } from '@/lib/api-client.ts';

export async function deleteUser(id: number): Promise<void> {
  await api('DELETE', `/users/${id}`);
}
