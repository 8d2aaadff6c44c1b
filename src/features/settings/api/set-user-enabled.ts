import { UserStruct } from '@/domain/contract/users.ts';
import { api } from '@/lib/api-client.ts';

export function setUserEnabled(id: number, isEnabled: boolean) {
  return api('PATCH', `/users/${id}`, { body: { isEnabled }, struct: UserStruct });
}
