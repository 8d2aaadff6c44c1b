import * as operations from '@/domain/contract/billing.ts';
import { call } from '@/lib/api-client.ts';

/** C§7 GET payment-plans (no token): the plans on sale, in display order. */
export function listPlans() {
  return call(operations.listPlans);
}
