import { UserStruct } from '@/domain/contract/users.ts';
import { api } from '@/lib/api-client.ts';

export function setEnabled(id: number, enabled: boolean) {
  return api('PATCH', `/users/${id}`, { body: { isEnabled: enabled ? 1 : 0 }, struct: UserStruct });
}
