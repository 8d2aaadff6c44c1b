import { UserStruct } from '@/domain/contract/users.ts';
import { api } from '@/lib/api-client.ts';

/** A§7 PATCH users/{id}/asset-path: the editor drive link; empty clears it. */
export function setEditorDrive(id: number, path: string) {
  return api('PATCH', `/users/${id}/asset-path`, { body: { path: path || null }, struct: UserStruct });
}
