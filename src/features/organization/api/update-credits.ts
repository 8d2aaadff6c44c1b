import * as operations from '@/domain/contract/customers.ts';
import type { UpdateCreditsBody } from '@/domain/contract/customers.ts';
import { call } from '@/lib/api-client.ts';

/** A§7 PUT organizations/{id}/credits. */
export async function updateCredits(organizationId: number, body: UpdateCreditsBody) {
  return (await call(operations.updateCredits, { params: { id: organizationId }, body })).data.credits;
}
