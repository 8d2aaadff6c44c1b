import { StaffPlanStruct, type PlanBody } from '@/domain/contract/billing.ts';
import { api } from '@/lib/api-client.ts';

/** POST admin/payment-plans (a new plan) or PUT admin/payment-plans/{id} (edit, retire with `retired: true`, bring back with `false`). */
export function savePlan(id: number | null, body: PlanBody) {
  return id === null ? api('POST', '/admin/payment-plans', { body, struct: StaffPlanStruct }) : api('PUT', `/admin/payment-plans/${id}`, { body, struct: StaffPlanStruct });
}
