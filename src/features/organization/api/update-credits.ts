import { CreditsAnswerStruct, type UpdateCreditsBody } from '@/domain/contract/customers.ts';
import { api } from '@/lib/api-client.ts';

/** A§7 PUT organizations/{id}/credits. */
export async function updateCredits(organizationId: number, body: UpdateCreditsBody) {
  return (await api('PUT', `/organizations/${organizationId}/credits`, { body, struct: CreditsAnswerStruct })).data.credits;
}
