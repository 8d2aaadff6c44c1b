import { updateUser as updateAnyUser } from '@/shared/users/api/update-user.ts';
import type { UserFields } from './user-fields.ts';

/** C§7 PATCH users/{id} with the user's details. */
export function updateUser(id: number, organizationId: number, fields: UserFields) {
  return updateAnyUser(id, { ...fields, organizationId });
}
