import { createUser as createAnyUser } from '@/shared/users/api/create-user.ts';
import type { UserFields } from './user-fields.ts';

/** C§7 POST users: the owner adds a User, who is e-mailed an invitation. */
export function createUser(organizationId: number, fields: UserFields) {
  return createAnyUser({ ...fields, role: 'User', organizationId });
}
