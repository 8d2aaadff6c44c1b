import { api } from '@/lib/api-client.ts';

/** A§7 DELETE users/{id}/editor: 204; 403 while the editor has assigned projects. */
export async function deleteEditor(id: number): Promise<void> {
  await api('DELETE', `/users/${id}/editor`);
}
