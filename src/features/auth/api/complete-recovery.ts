import * as operations from '@/domain/contract/auth.ts';
import { call } from '@/lib/api-client.ts';

export function completeRecovery(email: string, recoveryCode: string, newPassword: string) {
  return call(operations.completeRecovery, { body: { email, recoveryCode, newPassword } });
}
