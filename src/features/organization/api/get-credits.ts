import { CreditsAnswerStruct } from '@/domain/contract/customers.ts';
import { api } from '@/lib/api-client.ts';

export async function getCredits(organizationId: number) {
  return (await api('GET', `/organizations/${organizationId}/credits`, { struct: CreditsAnswerStruct })).data.credits;
}
