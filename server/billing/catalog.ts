import { define, nullable, object, refine, type Struct } from 'superstruct';
import { CATALOG_MESSAGES, normalizeCouponCode, planPriceProblem, type Coupon, type PaymentPlan } from '../../src/domain/billing.ts';
import {
  CouponBodyStruct,
  PlanBodyStruct,
  type CouponBody,
  type PlanBody,
  type PaymentPlanView,
  type StaffCoupon,
  type StaffPlan,
} from '../../src/domain/contract/billing.ts';
import { isIsoDate } from '../../src/domain/subscription.ts';
import type { Db } from '../db/connect.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { conflict, notFound, parse } from '../http-error.ts';
import { billingCatalogRepo, type CouponValues, type PlanValues, type StaffPlanRow } from '../repositories/billing-catalog.ts';

/**
 * Staff's plans and coupons (SUPERADMIN and ADMIN, the "Plans & coupons" tab). Plain
 * arguments in, contract shapes out; every refusal of a body is a 400 with a message per field.
 *
 * A change to a plan applies to what is sold from then on and to each running subscription at
 * its next yearly renewal (renewals charge the plan's price of that day and grant its credits
 * and storage); the term being paid for keeps what was bought. Retiring a plan stops selling
 * it; subscriptions on it keep renewing. docs/decisions.md "Plans and coupons, staff side".
 */

/** A plan as customers see it (GET payment-plans). */
export const planView = (plan: PaymentPlan): PaymentPlanView => ({
  id: plan.id,
  name: plan.name,
  monthlyCredits: plan.monthlyCredits,
  storage: plan.storageTb,
  pricePerMonth: plan.pricePerMonth,
  pricePerYear: plan.pricePerYear,
  currency: plan.currency,
  termMonths: plan.termMonths,
  kitType: plan.kitType,
});

const staffPlan = (plan: StaffPlanRow): StaffPlan => ({ ...planView(plan), retired: plan.retired, subscriptions: plan.subscriptions });

const staffCoupon = (coupon: Coupon): StaffCoupon => ({
  code: coupon.code,
  percentOff: coupon.percentOff,
  amountOff: coupon.amountOff,
  validUntil: coupon.validUntil,
  maxRedemptions: coupon.maxRedemptions,
  timesRedeemed: coupon.timesRedeemed,
  retired: coupon.retired,
});

const CODE = /^[A-Za-z0-9_-]{1,50}$/;

/**
 * The contract's coupon body, plus what one field cannot say alone: a code is required to
 * create one, the date must exist, exactly one kind of discount, and no maximum below the
 * redemptions already made.
 */
function couponStruct(mode: 'create' | 'update', timesRedeemed: number): Struct<CouponBody, unknown> {
  const code = define<string | undefined>('code', (value) => {
    if (value === undefined || (typeof value === 'string' && value.trim() === '')) return mode === 'update' || CATALOG_MESSAGES.codeRequired;
    return (typeof value === 'string' && CODE.test(value.trim())) || CATALOG_MESSAGES.codeShape;
  });
  const validUntil = nullable(define<string>('validUntil', (value) => (typeof value === 'string' && isIsoDate(value)) || CATALOG_MESSAGES.dateInvalid));
  const base = object({ ...CouponBodyStruct.schema, code, validUntil }) as unknown as Struct<CouponBody, unknown>;
  return refine(base, 'couponRules', (value) => {
    const failures: { path: string[]; message: string }[] = [];
    if ((value.percentOff === null) === (value.amountOff === null)) {
      failures.push({ path: ['percentOff'], message: CATALOG_MESSAGES.oneDiscount }, { path: ['amountOff'], message: CATALOG_MESSAGES.oneDiscount });
    }
    if (value.maxRedemptions !== null && value.maxRedemptions < timesRedeemed)
      failures.push({ path: ['maxRedemptions'], message: CATALOG_MESSAGES.maxBelowRedeemed(timesRedeemed) });
    return failures;
  });
}

/** The contract's plan body; a plan with subscriptions keeps its currency (renewals charge in it). */
function planStruct(current: StaffPlanRow | null): Struct<PlanBody, unknown> {
  return refine(PlanBodyStruct, 'planRules', (value) => {
    if (current && current.subscriptions > 0 && value.currency !== current.currency) return { path: ['currency'], message: CATALOG_MESSAGES.currencyFixed };
    const price = planPriceProblem(value.pricePerMonth, value.pricePerYear, value.currency);
    if (price) return { path: ['pricePerYear'], message: price };
    return true;
  });
}

const planValues = (body: PlanBody, retired: boolean): PlanValues => ({
  name: body.name.trim(),
  monthlyCredits: body.monthlyCredits,
  storageTb: body.storage,
  pricePerMonth: body.pricePerMonth,
  pricePerYear: body.pricePerYear,
  currency: body.currency,
  termMonths: body.termMonths,
  kitType: body.kitType?.trim() || null,
  retired,
});

const couponValues = (body: CouponBody, retired: boolean): CouponValues => ({
  percentOff: body.percentOff,
  amountOff: body.amountOff,
  validUntil: body.validUntil,
  maxRedemptions: body.maxRedemptions,
  retired,
});

export function billingCatalog(db: Db) {
  const repo = billingCatalogRepo(db);

  async function plan(id: number): Promise<StaffPlanRow> {
    const [row] = await repo.staffPlans(id);
    if (!row) throw notFound();
    return row;
  }

  return {
    async plans(): Promise<StaffPlan[]> {
      return (await repo.staffPlans()).map(staffPlan);
    },

    async createPlan(body: unknown): Promise<StaffPlan> {
      const input = parse(planStruct(null), body);
      const id = await repo.insertPlan(planValues(input, input.retired ?? false));
      return staffPlan(await plan(id));
    },

    /** `retired` retires the plan or brings it back; without it the plan stays as it was. */
    async updatePlan(id: number, body: unknown): Promise<StaffPlan> {
      const current = await plan(id);
      const input = parse(planStruct(current), body);
      await repo.updatePlan(id, planValues(input, input.retired ?? current.retired));
      return staffPlan(await plan(id));
    },

    async coupons(): Promise<StaffCoupon[]> {
      return (await repo.coupons()).map(staffCoupon);
    },

    /** Stored upper-case; a code that exists in any case is a 409. */
    async createCoupon(body: unknown): Promise<StaffCoupon> {
      const input = parse(couponStruct('create', 0), body);
      const code = normalizeCouponCode(input.code ?? '');
      const exists = () => conflict(CATALOG_MESSAGES.codeExists, { fields: { code: CATALOG_MESSAGES.codeExists } });
      if (await repo.coupon(code)) throw exists();
      try {
        await repo.insertCoupon(code, couponValues(input, input.retired ?? false));
      } catch (error) {
        // Created by someone else between the look-up and the insert.
        if (isUniqueViolation(error)) throw exists();
        throw error;
      }
      return staffCoupon((await repo.coupon(code))!);
    },

    /** The code stays what it is (it may be sent, unchanged, in the body). */
    async updateCoupon(code: string, body: unknown): Promise<StaffCoupon> {
      const current = CODE.test(code.trim()) ? await repo.coupon(code) : undefined;
      if (!current) throw notFound();
      const input = parse(couponStruct('update', current.timesRedeemed), body);
      if (input.code !== undefined && input.code.trim() !== '' && normalizeCouponCode(input.code) !== normalizeCouponCode(current.code)) {
        parse(
          refine(couponStruct('update', 0), 'codeFixed', () => ({ path: ['code'], message: CATALOG_MESSAGES.codeFixed })),
          body,
        );
      }
      // A redemption taken since the check above may have made the new maximum too low: checked again.
      if (!(await repo.updateCoupon(current.id, couponValues(input, input.retired ?? current.retired)))) {
        const now = await repo.coupon(code);
        if (!now) throw notFound();
        parse(couponStruct('update', now.timesRedeemed), body);
      }
      return staffCoupon((await repo.coupon(code))!);
    },
  };
}
