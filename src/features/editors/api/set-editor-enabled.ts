import { UserStruct } from '@/domain/contract/users.ts';
import { api } from '@/lib/api-client.ts';

/** A§7 PATCH users/{id} with { isEnabled } (1 or 0). */
export function setEditorEnabled(id: number, enabled: boolean) {
  return api('PATCH', `/users/${id}`, { body: { isEnabled: enabled ? 1 : 0 }, struct: UserStruct });
}
