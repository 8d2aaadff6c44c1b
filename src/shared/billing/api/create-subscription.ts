import * as operations from '@/domain/contract/billing.ts';
import type { CreateSubscriptionBody } from '@/domain/contract/billing.ts';
import { call } from '@/lib/api-client.ts';

/**
 * C§7 POST organizations/{id}/subscriptions. `idempotencyKey` is one per checkout attempt: a
 * double click or a retry after a lost answer replays the first outcome instead of charging again.
 */
export function createSubscription(organizationId: number, body: CreateSubscriptionBody) {
  return call(operations.createSubscription, { params: { id: organizationId }, body });
}
