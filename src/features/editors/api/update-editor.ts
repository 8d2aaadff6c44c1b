import { updateUser } from '@/shared/users/api/update-user.ts';
import type { EditorFields } from './editor-fields.ts';

export function updateEditor(id: number, fields: EditorFields) {
  return updateUser(id, fields);
}
