import { CouponCheckStruct } from '@/domain/contract/billing.ts';
import { api } from '@/lib/api-client.ts';

/** GET payment-plans/coupons/{code}: the discount when this organization may use the code; 404 with fields.coupon otherwise. */
export function checkCoupon(code: string) {
  return api('GET', `/payment-plans/coupons/${encodeURIComponent(code.trim())}`, { struct: CouponCheckStruct });
}
