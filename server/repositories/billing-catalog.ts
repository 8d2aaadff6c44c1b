import { sql } from 'kysely';
import { normalizeCouponCode, type Coupon, type PaymentPlan } from '../../src/domain/billing.ts';
import type { CouponRow, PaymentPlanRow } from '../billing/schema.ts';
import type { Db } from '../db/connect.ts';

/** A plan as staff manage it: retired ones too, with the number of subscriptions running on it. */
export interface StaffPlanRow extends PaymentPlan {
  subscriptions: number;
}

/** What staff set on a plan: everything but its id. */
export type PlanValues = Omit<PaymentPlan, 'id'>;

export interface CouponValues {
  percentOff: number | null;
  amountOff: number | null;
  validUntil: string | null;
  maxRedemptions: number | null;
  retired: boolean;
}

const planFromRow = (row: PaymentPlanRow): PaymentPlan => ({
  id: row.id,
  name: row.name,
  monthlyCredits: row.monthlyCredits,
  storageTb: row.storageTb,
  pricePerMonth: row.pricePerMonth,
  pricePerYear: row.pricePerYear,
  currency: row.currency,
  termMonths: row.termMonths,
  kitType: row.kitType,
  retired: row.retired,
});

const couponFromRow = (row: CouponRow): Coupon & { id: number } => ({
  id: row.id,
  code: row.code,
  percentOff: row.percentOff,
  amountOff: row.amountOff,
  validUntil: row.validUntil,
  maxRedemptions: row.maxRedemptions,
  timesRedeemed: row.timesRedeemed,
  retired: row.retired,
});

/**
 * The order plans are listed in everywhere (pricing page, Subscription tab, staff's table): by
 * what they cost a month, cheapest first, as the pricing page shows them; plans of one price in
 * their catalog order (sort_order, which a new plan takes after the others), then by id.
 */
const PLAN_ORDER = ['pricePerMonth', 'pricePerYear', 'sortOrder', 'id'] as const;

/** Subscriptions that run on a plan: paid (or being retried), cancelled ones until their end included. */
const LIVE_STATES = ['active', 'past_due'] as const;

/** Plans, coupons and their redemptions (migration 0009); `db` may be a transaction. */
export function billingCatalogRepo(db: Db) {
  return {
    /** The plans on sale. */
    async plansOnSale(): Promise<PaymentPlan[]> {
      let query = db.selectFrom('paymentPlans').selectAll().where('retired', '=', false);
      for (const column of PLAN_ORDER) query = query.orderBy(column);
      return (await query.execute()).map(planFromRow);
    },

    async plan(id: number): Promise<PaymentPlan | undefined> {
      const row = await db.selectFrom('paymentPlans').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? planFromRow(row) : undefined;
    },

    /** Staff's list (`id`: that plan only). */
    async staffPlans(id?: number): Promise<StaffPlanRow[]> {
      let query = db
        .selectFrom('paymentPlans as p')
        .selectAll('p')
        .select((eb) =>
          eb
            .selectFrom('subscriptions as s')
            .select((sub) => sub.fn.countAll<string>().as('n'))
            .whereRef('s.planId', '=', 'p.id')
            .where('s.status', 'in', LIVE_STATES)
            .as('subscriptions'),
        );
      for (const column of PLAN_ORDER) query = query.orderBy(`p.${column}`);
      if (id !== undefined) query = query.where('p.id', '=', id);
      const rows = await query.execute();
      return rows.map((row) => ({ ...planFromRow(row), subscriptions: Number(row.subscriptions ?? 0) }));
    },

    /** A new plan goes after the others. */
    async insertPlan(values: PlanValues): Promise<number> {
      const row = await db
        .insertInto('paymentPlans')
        .values((eb) => ({ ...values, sortOrder: eb.selectFrom('paymentPlans').select(sql<number>`coalesce(max(sort_order), 0) + 1`.as('next')) }))
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async updatePlan(id: number, values: PlanValues): Promise<boolean> {
      const result = await db.updateTable('paymentPlans').set(values).where('id', '=', id).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** The coupon of that code, in any case. */
    async coupon(code: string): Promise<(Coupon & { id: number }) | undefined> {
      const row = await db
        .selectFrom('coupons')
        .selectAll()
        .where(sql<string>`upper(code)`, '=', normalizeCouponCode(code))
        .executeTakeFirst();
      return row ? couponFromRow(row) : undefined;
    },

    /** Every coupon, newest first. */
    async coupons(): Promise<(Coupon & { id: number })[]> {
      const rows = await db.selectFrom('coupons').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc').execute();
      return rows.map(couponFromRow);
    },

    /** Throws the database's unique violation when the code (in any case) exists. */
    async insertCoupon(code: string, values: CouponValues): Promise<void> {
      await db
        .insertInto('coupons')
        .values({ code, ...values })
        .execute();
    },

    /**
     * Edits a coupon, unless a redemption taken meanwhile put it over the new maximum (false
     * then, as for an unknown code): the check and the write are one statement.
     */
    async updateCoupon(id: number, values: CouponValues): Promise<boolean> {
      const result = await db
        .updateTable('coupons')
        .set(values)
        .where('id', '=', id)
        .where((eb) => (values.maxRedemptions === null ? eb.lit(true) : eb('timesRedeemed', '<=', values.maxRedemptions)))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async redeemedBy(couponId: number, organizationId: number): Promise<boolean> {
      const row = await db
        .selectFrom('couponRedemptions')
        .select('id')
        .where('couponId', '=', couponId)
        .where('organizationId', '=', organizationId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Takes one redemption of the coupon, unless it ran out meanwhile (false then). In the caller's transaction. */
    async redeem(couponId: number, organizationId: number, subscriptionId: number): Promise<boolean> {
      const taken = await db
        .updateTable('coupons')
        .set((eb) => ({ timesRedeemed: eb('timesRedeemed', '+', 1) }))
        .where('id', '=', couponId)
        .where('retired', '=', false)
        .where((eb) => eb.or([eb('maxRedemptions', 'is', null), eb('timesRedeemed', '<', eb.ref('maxRedemptions'))]))
        .returning('id')
        .executeTakeFirst();
      if (!taken) return false;
      await db.insertInto('couponRedemptions').values({ couponId, organizationId, subscriptionId }).execute();
      return true;
    },

    /** Gives back the redemption a failed purchase had taken. In the caller's transaction. */
    async release(couponId: number, subscriptionId: number): Promise<void> {
      const released = await db
        .deleteFrom('couponRedemptions')
        .where('couponId', '=', couponId)
        .where('subscriptionId', '=', subscriptionId)
        .returning('id')
        .executeTakeFirst();
      if (released)
        await db
          .updateTable('coupons')
          .set((eb) => ({ timesRedeemed: eb('timesRedeemed', '-', 1) }))
          .where('id', '=', couponId)
          .execute();
    },
  };
}
