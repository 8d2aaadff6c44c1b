import * as operations from '@/domain/contract/billing.ts';
import { call } from '@/lib/api-client.ts';

/** GET payment-plans/coupons/{code}: the discount when this organization may use the code; 404 with fields.coupon otherwise. */
export function checkCoupon(code: string) {
  return call(operations.checkCoupon, { params: { code: code.trim() } });
}
