import * as operations from '@/domain/contract/users.ts';
import { call } from '@/lib/api-client.ts';

/** C§7 PATCH users/{id}/invite-link: a new invitation e-mail; the previous link stops working. */
export async function resendInvite(id: number): Promise<void> {
  await call(operations.resendInvite, { params: { id } });
}
