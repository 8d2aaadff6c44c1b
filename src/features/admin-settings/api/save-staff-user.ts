import { createUser } from '@/shared/users/api/create-user.ts';
import { updateUser } from '@/shared/users/api/update-user.ts';

export interface StaffFields {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
}

/** POST users (role Editor or Admin) or PATCH users/{id}. */
export function saveStaffUser(id: number | null, fields: StaffFields, role: 'Editor' | 'Admin') {
  return id === null ? createUser({ ...fields, role }) : updateUser(id, fields);
}
