import * as operations from '@/domain/contract/users.ts';
import { call } from '@/lib/api-client.ts';

/** What POST users takes: an owner's User (with the organization) or staff's Editor/Admin. */
export interface NewUser {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  role: 'User' | 'Editor' | 'Admin';
  organizationId?: number;
  /** A 200 px JPEG data: URL, or null for none (staff users). */
  profilePictureUrl?: string | null;
}

/** C§7/A§7 POST users: the one client call for every portal; the person is e-mailed an invitation. */
export function createUser(user: NewUser) {
  return call(operations.createUser, { body: user });
}
