import { StaffCouponListStruct } from '@/domain/contract/billing.ts';
import { api } from '@/lib/api-client.ts';

/** GET admin/coupons (SUPERADMIN, ADMIN): every coupon, retired ones too, with its redemptions. */
export function listCoupons() {
  return api('GET', '/admin/coupons', { struct: StaffCouponListStruct });
}
