import * as operations from '@/domain/contract/auth.ts';
import { call } from './api-client.ts';

/** GET client-config: what the app needs before sign-in (the bot check's site key, the card form). One client call, in src/lib because the bot check reads it. */
export function getClientConfig() {
  return call(operations.getClientConfig);
}
