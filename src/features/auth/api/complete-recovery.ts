import { SessionStruct } from '@/domain/contract/auth.ts';
import { api } from '@/lib/api-client.ts';

export function completeRecovery(email: string, recoveryCode: string, newPassword: string) {
  return api('PUT', '/password-recover-complete', { body: { email, recoveryCode, newPassword }, struct: SessionStruct });
}
