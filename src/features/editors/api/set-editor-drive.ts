import * as operations from '@/domain/contract/users.ts';
import { call } from '@/lib/api-client.ts';

/** A§7 PATCH users/{id}/asset-path: the editor drive link; empty clears it. */
export function setEditorDrive(id: number, path: string) {
  return call(operations.setEditorAssetPath, { params: { id }, body: { path: path || null } });
}
