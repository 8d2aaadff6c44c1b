import { UserStruct } from '@/domain/contract/users.ts';
import { api } from '@/lib/api-client.ts';
import type { EditorFields } from './editor-fields.ts';

/** A§7 POST users with role "Editor"; the editor is e-mailed an invitation. */
export function createEditor(fields: EditorFields) {
  return api('POST', '/users', { body: { ...fields, role: 'Editor' }, struct: UserStruct });
}
