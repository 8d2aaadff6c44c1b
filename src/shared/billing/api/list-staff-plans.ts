import { StaffPlanListStruct } from '@/domain/contract/billing.ts';
import { api } from '@/lib/api-client.ts';

/** GET admin/payment-plans (SUPERADMIN, ADMIN): every plan, retired ones too, with its subscription count. */
export function listStaffPlans() {
  return api('GET', '/admin/payment-plans', { struct: StaffPlanListStruct });
}
