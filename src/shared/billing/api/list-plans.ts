import { PaymentPlanListStruct } from '@/domain/contract/billing.ts';
import { api } from '@/lib/api-client.ts';

/** C§7 GET payment-plans (no token): the plans on sale, in display order. */
export function listPlans() {
  return api('GET', '/payment-plans', { struct: PaymentPlanListStruct });
}
