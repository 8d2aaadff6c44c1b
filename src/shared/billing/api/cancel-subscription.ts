import * as operations from '@/domain/contract/billing.ts';
import { call } from '@/lib/api-client.ts';

/** C§7 DELETE organizations/{id}/subscriptions: cancelled at the end of the paid term. */
export async function cancelSubscription(organizationId: number): Promise<void> {
  await call(operations.cancelSubscription, { params: { id: organizationId } });
}
