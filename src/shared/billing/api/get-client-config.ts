import { ClientConfigStruct } from '@/domain/contract/auth.ts';
import { api } from '@/lib/api-client.ts';

/** GET client-config: which card form to show (the embedded gateway's, or Stripe.js Elements). */
export function getClientConfig() {
  return api('GET', '/client-config', { struct: ClientConfigStruct });
}
