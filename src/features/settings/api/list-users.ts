import { UserListStruct } from '@/domain/contract/users.ts';
import { USERS_LIST_LIMIT } from '@/domain/constants.ts';
import { api } from '@/lib/api-client.ts';

/** C§2: start 0, limit 100; deleted users are hidden (the server never returns them, the client checks again). */
export async function listUsers(organizationId: number) {
  const users = await api('GET', `/organizations/${organizationId}/users`, { query: { start: 0, limit: USERS_LIST_LIMIT }, struct: UserListStruct });
  return users.filter((user) => user.deletedAt === null);
}
