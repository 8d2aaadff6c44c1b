import { api } from '@/lib/api-client.ts';

/** C§7 DELETE organizations/{id}/subscriptions: cancelled at the end of the paid term. */
export async function cancelSubscription(organizationId: number): Promise<void> {
  await api('DELETE', `/organizations/${organizationId}/subscriptions`);
}
