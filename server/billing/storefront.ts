import { couponProblem, isCouponCodeShape } from '../../src/domain/billing.ts';
import type { CouponCheck, PaymentPlanView } from '../../src/domain/contract/billing.ts';
import type { Db } from '../db/connect.ts';
import { billingCatalogRepo } from '../repositories/billing-catalog.ts';
import { planView } from './catalog.ts';
import { couponRefused } from './refusals.ts';

/** The plans on sale (public: C§7 lists payment-plans among the calls without a token). */
export async function plansOnSale(db: Db): Promise<PaymentPlanView[]> {
  return (await billingCatalogRepo(db).plansOnSale()).map(planView);
}

/** The coupon as this organization would get it; 404 with the coupon message otherwise. */
export async function checkCoupon(db: Db, organizationId: number, code: string, today: string): Promise<CouponCheck> {
  if (!isCouponCodeShape(code)) throw couponRefused(404);
  const catalog = billingCatalogRepo(db);
  const coupon = await catalog.coupon(code);
  const redeemed = coupon ? await catalog.redeemedBy(coupon.id, organizationId) : false;
  if (!coupon || couponProblem(coupon, today, redeemed)) throw couponRefused(404);
  return { code: coupon.code, percentOff: coupon.percentOff, amountOff: coupon.amountOff, validUntil: coupon.validUntil };
}
