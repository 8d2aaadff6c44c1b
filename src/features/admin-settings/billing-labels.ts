import type { StaffCoupon } from '@/domain/contract/billing.ts';
import { formatMoney } from '@/lib/format.ts';

/** "10 %" or "$50.00 off". An amount is in the currency of the plan it is used on. */
export function discountLabel(coupon: Pick<StaffCoupon, 'percentOff' | 'amountOff'>, currency: string): string {
  if (coupon.percentOff !== null) return `${coupon.percentOff} %`;
  if (coupon.amountOff !== null) return `${formatMoney(coupon.amountOff, currency)} off`;
  return '—';
}

export type CouponState = 'active' | 'retired' | 'expired' | 'used up';

/** Why a coupon can no longer be used, or active. Retired wins; then the end date; then the redemptions. */
export function couponState(coupon: StaffCoupon, today: string): CouponState {
  if (coupon.retired) return 'retired';
  if (coupon.validUntil !== null && today > coupon.validUntil) return 'expired';
  if (coupon.maxRedemptions !== null && coupon.timesRedeemed >= coupon.maxRedemptions) return 'used up';
  return 'active';
}
