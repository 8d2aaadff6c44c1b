import * as operations from '@/domain/contract/users.ts';
import type { USER_LIST_ROLES } from '@/domain/contract/users.ts';
import { call } from '@/lib/api-client.ts';

/** A§7 GET users: a page of staff users by role, newest first. */
export function listStaffUsers(role: (typeof USER_LIST_ROLES)[number], start: number, limit: number) {
  return call(operations.listUsers, { query: { role, start, limit } });
}

/** C§7/A§9 GET organizations/{id}/users: a page of the organization's users (deleted ones never). */
export function listOrganizationUsers(organizationId: number, start: number, limit: number) {
  return call(operations.listOrganizationUsers, { params: { id: organizationId }, query: { start, limit } });
}
