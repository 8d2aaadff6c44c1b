import { UserListStruct } from '@/domain/contract/users.ts';
import { USERS_LIST_LIMIT } from '@/domain/constants.ts';
import { api } from '@/lib/api-client.ts';

/** A§2 admin settings users: every staff user, table limit 100. */
export function listStaff() {
  return api('GET', '/users', { query: { role: 'staff', start: 0, limit: USERS_LIST_LIMIT }, struct: UserListStruct });
}
