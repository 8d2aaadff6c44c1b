import { SessionStruct, type RegisterBody } from '@/domain/contract/auth.ts';
import { api } from '@/lib/api-client.ts';

export function register(body: RegisterBody) {
  return api('POST', '/register', { body, struct: SessionStruct });
}
