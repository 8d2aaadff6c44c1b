import { SubscriptionListStruct } from '@/domain/contract/billing.ts';
import { api } from '@/lib/api-client.ts';

/** GET organizations/{id}/subscriptions: newest first, each with its invoices and card. */
export function listSubscriptions(organizationId: number) {
  return api('GET', `/organizations/${organizationId}/subscriptions`, { struct: SubscriptionListStruct });
}
