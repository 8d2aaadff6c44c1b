import * as operations from '@/domain/contract/billing.ts';
import type { CouponBody } from '@/domain/contract/billing.ts';
import { call } from '@/lib/api-client.ts';

/**
 * POST admin/coupons (a new code; 409 when it exists) or PUT admin/coupons/{code} (edit or
 * retire; the code itself never changes, so it is not sent again).
 */
export function saveCoupon(code: string | null, body: CouponBody) {
  if (code === null) return call(operations.createCoupon, { body });
  const { code: _unchanged, ...rest } = body;
  return call(operations.updateCoupon, { params: { code }, body: rest });
}
