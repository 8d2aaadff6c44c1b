import { UserStruct } from '@/domain/contract/users.ts';
import { api } from '@/lib/api-client.ts';
import type { UserFields } from './user-fields.ts';

/** C§7 POST users: the owner adds a User, who is e-mailed an invitation. */
export function createUser(organizationId: number, fields: UserFields) {
  return api('POST', '/users', { body: { ...fields, role: 'User', organizationId }, struct: UserStruct });
}
