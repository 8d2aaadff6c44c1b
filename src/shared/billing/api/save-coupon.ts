import { StaffCouponStruct, type CouponBody } from '@/domain/contract/billing.ts';
import { api } from '@/lib/api-client.ts';

/**
 * POST admin/coupons (a new code; 409 when it exists) or PUT admin/coupons/{code} (edit or
 * retire; the code itself never changes, so it is not sent again).
 */
export function saveCoupon(code: string | null, body: CouponBody) {
  if (code === null) return api('POST', '/admin/coupons', { body, struct: StaffCouponStruct });
  const { code: _unchanged, ...rest } = body;
  return api('PUT', `/admin/coupons/${encodeURIComponent(code)}`, { body: rest, struct: StaffCouponStruct });
}
