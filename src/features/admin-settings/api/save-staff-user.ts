import { UserStruct } from '@/domain/contract/users.ts';
import { api } from '@/lib/api-client.ts';

export interface StaffFields {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
}

/** POST users (role Editor or Admin) or PATCH users/{id}. */
export function saveStaffUser(id: number | null, fields: StaffFields, role: 'Editor' | 'Admin') {
  return id === null ? api('POST', '/users', { body: { ...fields, role }, struct: UserStruct }) : api('PATCH', `/users/${id}`, { body: fields, struct: UserStruct });
}
