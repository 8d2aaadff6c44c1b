import { createUser } from '@/shared/users/api/create-user.ts';
import type { EditorFields } from './editor-fields.ts';

/** A§7 POST users with role "Editor"; the editor is e-mailed an invitation. */
export function createEditor(fields: EditorFields) {
  return createUser({ ...fields, role: 'Editor' });
}
