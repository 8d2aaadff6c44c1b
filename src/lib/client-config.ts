import { ClientConfigStruct } from '@/domain/contract/auth.ts';
import { api } from './api-client.ts';

/** GET client-config: what the app needs before sign-in (the bot check's site key, the card form). One client call, in src/lib because the bot check reads it. */
export function getClientConfig() {
  return api('GET', '/client-config', { struct: ClientConfigStruct });
}
