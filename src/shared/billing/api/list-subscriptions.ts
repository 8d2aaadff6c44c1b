import * as operations from '@/domain/contract/billing.ts';
import { call } from '@/lib/api-client.ts';

/** GET organizations/{id}/subscriptions: newest first, each with its invoices and card. */
export function listSubscriptions(organizationId: number) {
  return call(operations.listSubscriptions, { params: { id: organizationId } });
}
