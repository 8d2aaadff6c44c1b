import { UserListStruct } from '@/domain/contract/users.ts';
import { api } from '@/lib/api-client.ts';

export const EDITORS_PAGE_SIZE = 50;

/** A§7 users by role: role "editor", 50 per page, newest first. */
export function listEditors(start: number) {
  return api('GET', '/users', { query: { role: 'editor', start, limit: EDITORS_PAGE_SIZE }, struct: UserListStruct });
}
