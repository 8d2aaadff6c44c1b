import { CreditsAnswerStruct } from '@/domain/contract/customers.ts';
import { api } from '@/lib/api-client.ts';

/** C§7 GET organizations/{id}/credits → data.credits. */
export async function getCredits(organizationId: number) {
  const answer = await api('GET', `/organizations/${organizationId}/credits`, { struct: CreditsAnswerStruct });
  return answer.data.credits;
}
