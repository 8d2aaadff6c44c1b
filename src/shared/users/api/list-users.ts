import { UserListStruct, type USER_LIST_ROLES } from '@/domain/contract/users.ts';
import { api } from '@/lib/api-client.ts';

/** A§7 GET users: a page of staff users by role, newest first. */
export function listStaffUsers(role: (typeof USER_LIST_ROLES)[number], start: number, limit: number) {
  return api('GET', '/users', { query: { role, start, limit }, struct: UserListStruct });
}

/** C§7/A§9 GET organizations/{id}/users: a page of the organization's users (deleted ones never). */
export function listOrganizationUsers(organizationId: number, start: number, limit: number) {
  return api('GET', `/organizations/${organizationId}/users`, { query: { start, limit }, struct: UserListStruct });
}
