import * as operations from '@/domain/contract/users.ts';
import { call } from '@/lib/api-client.ts';

/** A user's details as PATCH users/{id} takes them (the customer form sends its organization too). */
export interface UserDetails {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  organizationId?: number;
  profilePictureUrl?: string | null;
}

/** C§7/A§7 PATCH users/{id} with the details: the one client call for every portal. */
export function updateUser(id: number, details: UserDetails) {
  return call(operations.updateUser, { params: { id }, body: details });
}

/** PATCH users/{id} with { isEnabled }: enabling or disabling, sent one way (a boolean) from every portal. */
export function setUserEnabled(id: number, enabled: boolean) {
  return call(operations.updateUser, { params: { id }, body: { isEnabled: enabled } });
}
