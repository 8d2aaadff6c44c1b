import * as operations from '@/domain/contract/customers.ts';
import { call } from '@/lib/api-client.ts';

/** C§7 GET organizations/{id}/credits → data.credits. */
export async function getCredits(organizationId: number) {
  const answer = await call(operations.getCredits, { params: { id: organizationId } });
  return answer.data.credits;
}
