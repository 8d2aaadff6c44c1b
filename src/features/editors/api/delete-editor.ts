import * as operations from '@/domain/contract/users.ts';
import { call } from '@/lib/api-client.ts';

/** A§7 DELETE users/{id}/editor: 204; 403 while the editor has assigned projects. */
export async function deleteEditor(id: number): Promise<void> {
  await call(operations.deleteEditor, { params: { id } });
}
