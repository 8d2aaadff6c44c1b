import { UserStruct } from '@/domain/contract/users.ts';
import { api } from '@/lib/api-client.ts';
import type { UserFields } from './user-fields.ts';

/** C§7 PATCH users/{id} with the user's details. */
export function updateUser(id: number, organizationId: number, fields: UserFields) {
  return api('PATCH', `/users/${id}`, { body: { ...fields, organizationId }, struct: UserStruct });
}
