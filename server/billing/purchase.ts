import { randomUUID } from 'node:crypto';
import {
  BILLING_FIELDS,
  BILLING_MESSAGES,
  SHIPPING_FIELDS,
  couponProblem,
  discountedPrice,
  isCouponCodeShape,
  termDates,
  type PaymentPlan,
} from '../../src/domain/billing.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { conflict, notFound } from '../http-error.ts';
import { billingCatalogRepo } from '../repositories/billing-catalog.ts';
import { billingCustomersRepo } from '../repositories/billing-customers.ts';
import { billingSubscriptionsRepo } from '../repositories/billing-subscriptions.ts';
import type { BillingDeps } from './deps.ts';
import { attachCard, customerAt } from './provider-calls.ts';
import { purchaseCompletion } from './purchase-completion.ts';
import { alreadySubscribed, cardUnusable, couponRefused, planUnavailable } from './refusals.ts';
import type { SubscriptionRow } from './schema.ts';
import { subscriptionView, type SubscriptionView } from './subscription-view.ts';

export interface PurchaseInput {
  organizationId: number;
  organizationName: string;
  ownerEmail: string;
  paymentPlanId: number;
  paymentMethodId: string;
  coupon: string | null;
  billing: Record<string, string>;
  shipping: Record<string, string>;
  idempotencyKey: string | null;
  today: string;
}

/** Only the form's own fields are kept: anything else sent along (a card number?) is dropped. */
const picked = (values: Record<string, unknown>, fields: readonly string[]) =>
  Object.fromEntries(fields.map((field) => [field, String(values[field] ?? '').trim()]));

const renewsAfter = (organization: { renewableAt: Date | null } | undefined, today: string) =>
  !!organization?.renewableAt && organization.renewableAt.toISOString().slice(0, 10) > today;

/**
 * Subscriptions (issue 11). A purchase is three steps, so that no failure charges twice or
 * charges for nothing:
 * 1. reserve: a `pending` subscription row (one live row per organization, enforced by a unique
 *    index, so a second purchase or a race of two gets 409) and the coupon's redemption;
 * 2. charge the first year, with an idempotency key derived from that row;
 * 3. in one transaction: the subscription, credits, storage, renewableAt, invoice and kit.
 * A request repeated with the same idempotency key replays the stored outcome, or finishes a
 * purchase interrupted between 2 and 3 (the gateway answers the same charge again). New
 * purchases go through the default gateway, which the reserved row records.
 */
export function subscriptionPurchase(deps: BillingDeps) {
  const { db } = deps;
  const provider = deps.providers.default;
  const catalog = billingCatalogRepo(db);
  const subscriptions = billingSubscriptionsRepo(db);
  const { finish } = purchaseCompletion(deps);

  async function sameOrder(earlier: SubscriptionRow, input: PurchaseInput): Promise<boolean> {
    if (earlier.planId !== input.paymentPlanId || earlier.paymentMethodId !== input.paymentMethodId) return false;
    const code = input.coupon?.trim() || null;
    const couponId = code === null ? null : isCouponCodeShape(code) ? ((await catalog.coupon(code))?.id ?? -1) : -1;
    return (earlier.couponId ?? null) === couponId;
  }

  /** Step 1. Undefined when a request with the same key reserved first (the caller replays it). */
  async function reserve(
    input: PurchaseInput,
    plan: PaymentPlan,
    couponId: number | null,
    amount: number,
    customerId: string,
    key: string,
  ): Promise<SubscriptionRow | undefined> {
    const dates = termDates(input.today, plan.termMonths);
    try {
      return await db.transaction().execute(async (tx): Promise<SubscriptionRow | undefined> => {
        const txSubscriptions = billingSubscriptionsRepo(tx);
        // Queues purchases of one organization behind each other.
        const organization = await txSubscriptions.lockOrganization(input.organizationId);
        if (!organization || organization.deletedAt) throw notFound();
        // A request with the same key got the lock first: this one replays it, whatever it did.
        if (await txSubscriptions.byKey(input.organizationId, key)) return undefined;
        // A subscription set by staff (no row here) counts too, until its renewal date.
        if (renewsAfter(organization, input.today)) throw alreadySubscribed();
        const row = await txSubscriptions.insertPending({
          organizationId: input.organizationId,
          planId: plan.id,
          startDate: dates.startDate,
          renewableAt: dates.renewableAt,
          provider: provider.name,
          providerCustomerId: customerId,
          providerSubscriptionId: null,
          paymentMethodId: input.paymentMethodId,
          couponId,
          amount,
          currency: plan.currency,
          billing: JSON.stringify(picked(input.billing, BILLING_FIELDS)),
          shipping: JSON.stringify(picked(input.shipping, SHIPPING_FIELDS)),
          idempotencyKey: key,
        });
        if (couponId !== null && !(await billingCatalogRepo(tx).redeem(couponId, input.organizationId, row.id))) throw couponRefused();
        return row;
      });
    } catch (error) {
      // A deadlock or serialization failure lost to another purchase: "try again" is the truth.
      const code = (error as { code?: unknown }).code;
      if (code === '40P01' || code === '40001') throw alreadySubscribed();
      if (!isUniqueViolation(error)) throw error;
      if ((error as { constraint?: string }).constraint === 'coupon_redemptions_once') throw couponRefused();
      // A request with the same key reserved first (whichever unique index noticed it).
      if (await subscriptions.byKey(input.organizationId, key)) return undefined;
      // subscriptions_one_live: another subscription is live or being bought.
      throw alreadySubscribed();
    }
  }

  const replay = async (row: SubscriptionRow) => ({ subscription: await subscriptionView(db, await finish(row), true), replayed: true });

  return async function purchase(input: PurchaseInput): Promise<{ subscription: SubscriptionView; replayed: boolean }> {
    const key = input.idempotencyKey ?? randomUUID();
    const earlier = input.idempotencyKey ? await subscriptions.byKey(input.organizationId, key) : undefined;
    if (earlier) {
      // A key names one order: the same key with another plan, card or coupon is a client's
      // mistake to be told, not an old order to be replayed as if it were the new one.
      if (!(await sameOrder(earlier, input))) throw conflict(BILLING_MESSAGES.idempotencyKeyReused);
      return replay(earlier);
    }

    const plan = await catalog.plan(input.paymentPlanId);
    if (!plan || plan.retired) throw planUnavailable();
    // Refused before the gateway is asked anything; reserve() below decides for good.
    if (renewsAfter(await subscriptions.organization(input.organizationId), input.today)) {
      // Unless that subscription is this very request's, bought by its twin a moment ago.
      const twin = input.idempotencyKey ? await subscriptions.byKey(input.organizationId, key) : undefined;
      if (twin) return replay(twin);
      throw alreadySubscribed();
    }
    // A card added through another organization is not this one's to use.
    const owner = await billingCustomersRepo(db).cardOwner(input.paymentMethodId);
    if (owner !== undefined ? owner !== input.organizationId : provider.name === 'embedded') throw cardUnusable();
    // The coupon last: its answer must not tell a guesser anything the checks above would
    // refuse anyway (the route is rate limited per address too).
    let couponId: number | null = null;
    let amount = plan.pricePerYear;
    if (input.coupon?.trim()) {
      const coupon = isCouponCodeShape(input.coupon) ? await catalog.coupon(input.coupon) : undefined;
      const redeemed = coupon ? await catalog.redeemedBy(coupon.id, input.organizationId) : false;
      if (!coupon || couponProblem(coupon, input.today, redeemed)) throw couponRefused();
      couponId = coupon.id;
      amount = discountedPrice(plan.pricePerYear, coupon);
    }

    const customerId = await customerAt(db, provider, deps.log, { id: input.organizationId, name: input.organizationName, email: input.ownerEmail });
    await attachCard(db, provider, input.organizationId, customerId, input.paymentMethodId);

    const reserved = await reserve(input, plan, couponId, amount, customerId, key);
    // The same key won a race with this request: finish (or replay) that purchase instead.
    const row = reserved ?? (await subscriptions.byKey(input.organizationId, key));
    if (!row) throw conflict(BILLING_MESSAGES.createFailed);
    return { subscription: await subscriptionView(db, await finish(row), true), replayed: reserved === undefined };
  };
}
