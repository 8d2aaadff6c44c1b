import { UserListStruct } from '@/domain/contract/users.ts';
import { api } from '@/lib/api-client.ts';

/** Enabled editors for the assignment dropdown (A§7 users by role). */
export async function listEditors() {
  const editors = await api('GET', '/users', { query: { role: 'editor', start: 0, limit: 200 }, struct: UserListStruct });
  return editors.filter((e) => e.isEnabled === 1 && !e.deletedAt);
}
