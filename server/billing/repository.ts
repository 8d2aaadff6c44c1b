import { sql } from 'kysely';
import { normalizeCouponCode, type Coupon, type PaymentPlan } from '../../src/domain/billing.ts';
import type { BillingDb, BillingTx } from './db.ts';
import type { CardDetails, ProviderName } from './payment-provider.ts';
import type { CouponRow, PaymentPlanRow, SubscriptionRow } from './schema.ts';

/** SQL of the billing tables; every function takes the database or a transaction. */

export function planFromRow(row: PaymentPlanRow): PaymentPlan {
  return {
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
  };
}

export function couponFromRow(row: CouponRow): Coupon & { id: number } {
  return {
    id: row.id,
    code: row.code,
    percentOff: row.percentOff,
    amountOff: row.amountOff,
    validUntil: row.validUntil,
    maxRedemptions: row.maxRedemptions,
    timesRedeemed: row.timesRedeemed,
    retired: row.retired,
  };
}

/**
 * The order plans are listed in everywhere (pricing page, Subscription tab, staff's table): by
 * what they cost a month, cheapest first, as the pricing page shows them; plans of one price in
 * their catalog order (sort_order, which a new plan takes after the others), then by id.
 */
const PLAN_ORDER = ['pricePerMonth', 'pricePerYear', 'sortOrder', 'id'] as const;

export async function listPlans(db: BillingDb): Promise<PaymentPlan[]> {
  let query = db.selectFrom('paymentPlans').selectAll().where('retired', '=', false);
  for (const column of PLAN_ORDER) query = query.orderBy(column);
  const rows = await query.execute();
  return rows.map(planFromRow);
}

export async function findPlan(db: BillingDb | BillingTx, id: number): Promise<PaymentPlan | undefined> {
  const row = await db.selectFrom('paymentPlans').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? planFromRow(row) : undefined;
}

export async function findCoupon(db: BillingDb | BillingTx, code: string): Promise<(Coupon & { id: number }) | undefined> {
  const row = await db.selectFrom('coupons').selectAll().where(sql<string>`upper(code)`, '=', normalizeCouponCode(code)).executeTakeFirst();
  return row ? couponFromRow(row) : undefined;
}

export async function couponRedeemedBy(db: BillingDb | BillingTx, couponId: number, organizationId: number): Promise<boolean> {
  const row = await db.selectFrom('couponRedemptions').select('id').where('couponId', '=', couponId).where('organizationId', '=', organizationId).executeTakeFirst();
  return row !== undefined;
}

/** Takes one redemption of the coupon, unless it ran out meanwhile (false then). */
export async function redeemCoupon(tx: BillingTx, couponId: number, organizationId: number, subscriptionId: number): Promise<boolean> {
  const taken = await tx
    .updateTable('coupons')
    .set((eb) => ({ timesRedeemed: eb('timesRedeemed', '+', 1) }))
    .where('id', '=', couponId)
    .where('retired', '=', false)
    .where((eb) => eb.or([eb('maxRedemptions', 'is', null), eb('timesRedeemed', '<', eb.ref('maxRedemptions'))]))
    .returning('id')
    .executeTakeFirst();
  if (!taken) return false;
  await tx.insertInto('couponRedemptions').values({ couponId, organizationId, subscriptionId }).execute();
  return true;
}

/** Gives back the redemption a failed purchase had taken. */
export async function releaseCoupon(tx: BillingTx, couponId: number, subscriptionId: number): Promise<void> {
  const released = await tx.deleteFrom('couponRedemptions').where('couponId', '=', couponId).where('subscriptionId', '=', subscriptionId).returning('id').executeTakeFirst();
  if (released) await tx.updateTable('coupons').set((eb) => ({ timesRedeemed: eb('timesRedeemed', '-', 1) })).where('id', '=', couponId).execute();
}

export async function customerIdFor(db: BillingDb, organizationId: number, provider: ProviderName): Promise<string | undefined> {
  const row = await db.selectFrom('billingCustomers').select('providerCustomerId').where('organizationId', '=', organizationId).where('provider', '=', provider).executeTakeFirst();
  return row?.providerCustomerId;
}

/** Keeps the first customer id stored for the organization; answers the one that stays. */
export async function saveCustomerId(db: BillingDb, organizationId: number, provider: ProviderName, providerCustomerId: string): Promise<string> {
  await db.insertInto('billingCustomers').values({ organizationId, provider, providerCustomerId }).onConflict((oc) => oc.columns(['organizationId', 'provider']).doNothing()).execute();
  return (await customerIdFor(db, organizationId, provider)) ?? providerCustomerId;
}

export async function paymentMethodOwner(db: BillingDb, providerPaymentMethodId: string): Promise<number | undefined> {
  const row = await db.selectFrom('paymentMethods').select('organizationId').where('providerPaymentMethodId', '=', providerPaymentMethodId).executeTakeFirst();
  return row?.organizationId;
}

/** Records a card of the organization (brand, last four, expiry only). */
export async function savePaymentMethod(db: BillingDb, organizationId: number, provider: ProviderName, providerPaymentMethodId: string, card: CardDetails): Promise<void> {
  await db
    .insertInto('paymentMethods')
    .values({ organizationId, provider, providerPaymentMethodId, brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear })
    .onConflict((oc) => oc.column('providerPaymentMethodId').doUpdateSet({ brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear }).where('paymentMethods.organizationId', '=', organizationId))
    .execute();
}

export async function subscriptionByKey(db: BillingDb, organizationId: number, idempotencyKey: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').selectAll().where('organizationId', '=', organizationId).where('idempotencyKey', '=', idempotencyKey).executeTakeFirst();
}

export async function subscriptionById(db: BillingDb | BillingTx, id: number): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
}

// ---- Staff: plans and coupons ----------------------------------------------------------------

/** A plan as staff manage it: retired ones too, with the number of subscriptions running on it. */
export interface StaffPlanRow extends PaymentPlan {
  subscriptions: number;
}

/** Subscriptions that run on a plan: paid (or being retried), cancelled ones until their end included. */
const LIVE_STATES = ['active', 'past_due'] as const;

export async function listStaffPlans(db: BillingDb, id?: number): Promise<StaffPlanRow[]> {
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
}

/** What staff set on a plan: everything but its id. */
export type PlanValues = Omit<PaymentPlan, 'id'>;

/** A new plan goes after the others. */
export async function insertPlan(db: BillingDb, values: PlanValues): Promise<number> {
  const row = await db
    .insertInto('paymentPlans')
    .values((eb) => ({ ...values, sortOrder: eb.selectFrom('paymentPlans').select(sql<number>`coalesce(max(sort_order), 0) + 1`.as('next')) }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updatePlan(db: BillingDb, id: number, values: PlanValues): Promise<boolean> {
  const result = await db.updateTable('paymentPlans').set(values).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function listCoupons(db: BillingDb): Promise<(Coupon & { id: number })[]> {
  const rows = await db.selectFrom('coupons').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc').execute();
  return rows.map(couponFromRow);
}

export interface CouponValues {
  percentOff: number | null;
  amountOff: number | null;
  validUntil: string | null;
  maxRedemptions: number | null;
  retired: boolean;
}

/** Throws the database's unique violation when the code (in any case) exists. */
export async function insertCoupon(db: BillingDb, code: string, values: CouponValues): Promise<void> {
  await db.insertInto('coupons').values({ code, ...values }).execute();
}

/**
 * Edits a coupon, unless a redemption taken meanwhile put it over the new maximum (undefined
 * then, as for an unknown code): the check and the write are one statement.
 */
export async function updateCoupon(db: BillingDb, id: number, values: CouponValues): Promise<boolean> {
  const result = await db
    .updateTable('coupons')
    .set(values)
    .where('id', '=', id)
    .where((eb) => (values.maxRedemptions === null ? eb.lit(true) : eb('timesRedeemed', '<=', values.maxRedemptions)))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
