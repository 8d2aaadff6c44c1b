import * as operations from '@/domain/contract/billing.ts';
import { call } from '@/lib/api-client.ts';

/** GET admin/payment-plans (SUPERADMIN, ADMIN): every plan, retired ones too, with its subscription count. */
export function listStaffPlans() {
  return call(operations.listStaffPlans);
}
