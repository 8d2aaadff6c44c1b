import * as operations from '@/domain/contract/billing.ts';
import type { PlanBody } from '@/domain/contract/billing.ts';
import { call } from '@/lib/api-client.ts';

/** POST admin/payment-plans (a new plan) or PUT admin/payment-plans/{id} (edit, retire with `retired: true`, bring back with `false`). */
export function savePlan(id: number | null, body: PlanBody) {
  return id === null ? call(operations.createPlan, { body }) : call(operations.updatePlan, { params: { id }, body });
}
