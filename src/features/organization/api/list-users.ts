import { listOrganizationUsers } from '@/shared/users/api/list-users.ts';

/** A§9: the organization page shows its users 4 at a time. */
export const ORGANIZATION_USERS_PAGE = 4;

export function listUsers(organizationId: number, start: number) {
  return listOrganizationUsers(organizationId, start, ORGANIZATION_USERS_PAGE);
}
