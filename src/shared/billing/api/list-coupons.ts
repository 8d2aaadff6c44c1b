import * as operations from '@/domain/contract/billing.ts';
import { call } from '@/lib/api-client.ts';

/** GET admin/coupons (SUPERADMIN, ADMIN): every coupon, retired ones too, with its redemptions. */
export function listCoupons() {
  return call(operations.listCoupons);
}
