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

export async function listPlans(db: BillingDb): Promise<PaymentPlan[]> {
  const rows = await db.selectFrom('paymentPlans').selectAll().where('retired', '=', false).orderBy('sortOrder').orderBy('id').execute();
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
