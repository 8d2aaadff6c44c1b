import { UserStruct } from '@/domain/contract/users.ts';
import { api } from '@/lib/api-client.ts';
import type { EditorFields } from './editor-fields.ts';

export function updateEditor(id: number, fields: EditorFields) {
  return api('PATCH', `/users/${id}`, { body: fields, struct: UserStruct });
}
