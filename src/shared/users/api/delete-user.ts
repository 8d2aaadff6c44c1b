import * as operations from '@/domain/contract/users.ts';
import { call } from '@/lib/api-client.ts';

/** C§7 DELETE users/{id}: 204 on success. */
export async function deleteUser(id: number): Promise<void> {
  await call(operations.deleteUser, { params: { id } });
}
