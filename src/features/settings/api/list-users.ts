import { USERS_LIST_LIMIT } from '@/domain/constants.ts';
import { listOrganizationUsers } from '@/shared/users/api/list-users.ts';

/** C§2: start 0, limit 100; deleted users are hidden (the server never returns them, the client checks again). */
export async function listUsers(organizationId: number) {
  const users = await listOrganizationUsers(organizationId, 0, USERS_LIST_LIMIT);
  return users.filter((user) => user.deletedAt === null);
}
