import * as operations from '@/domain/contract/auth.ts';
import { call } from '@/lib/api-client.ts';

/** Asks for a recovery e-mail; the server answers 204 whether or not the account exists. */
export async function recoverPassword(email: string): Promise<void> {
  await call(operations.recoverPassword, { body: { email: email.trim() } });
}
