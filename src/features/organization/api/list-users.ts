import { UserListStruct } from '@/domain/contract/users.ts';
import { api } from '@/lib/api-client.ts';

/** A§9: the organization page shows its users 4 at a time. */
export const ORGANIZATION_USERS_PAGE = 4;

export function listUsers(organizationId: number, start: number) {
  return api('GET', `/organizations/${organizationId}/users`, { query: { start, limit: ORGANIZATION_USERS_PAGE }, struct: UserListStruct });
}
