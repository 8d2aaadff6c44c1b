import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  BILLING_FIELDS,
  BILLING_MESSAGES,
  SHIPPING_FIELDS,
  cardBrand,
  cardNumberRule,
  couponProblem,
  cvcProblem,
  discountedPrice,
  displayedStatus,
  expiryProblem,
  isCouponCodeShape,
  termDates,
  type PaymentPlan,
} from '../../src/domain/billing.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { Db } from '../db/connect.ts';
import { HttpError, badRequest, conflict, notFound } from '../http-error.ts';
import { billingDb, type BillingDb } from './db.ts';
import { EmbeddedGateway } from './embedded-gateway.ts';
import type { BillingNotices } from './notices.ts';
import { CardDeclined, GatewayUnavailable, PaymentMethodUnusable, type CardDetails, type PaymentProvider } from './payment-provider.ts';
import {
  couponRedeemedBy,
  customerIdFor,
  findCoupon,
  findPlan,
  listPlans,
  paymentMethodOwner,
  redeemCoupon,
  releaseCoupon,
  saveCustomerId,
  savePaymentMethod,
  subscriptionById,
  subscriptionByKey,
} from './repository.ts';
import type { SubscriptionRow } from './schema.ts';
import { applyPaidTerm, lockOrganization } from './terms.ts';
import { planView } from './catalog.ts';
import type { PaymentPlanView } from '../../src/domain/contract/billing.ts';

/** 402: the card was refused; the message is the gateway's reason (C§5 "card info must be valid"). */
export const paymentRefused = (message: string) => new HttpError(402, message, { fields: { paymentMethodId: message } });
const gatewayDown = () => new HttpError(503, BILLING_MESSAGES.gatewayUnavailable);
const couponRefused = (status = 400) => new HttpError(status, BILLING_MESSAGES.couponInvalid, { fields: { coupon: BILLING_MESSAGES.couponInvalid } });
const alreadySubscribed = () => conflict(BILLING_MESSAGES.createFailed);


export interface SubscriptionView {
  id: number;
  status: 'active' | 'canceled' | 'inactive';
  state: SubscriptionRow['status'];
  plan: { id: number; name: string };
  startDate: string;
  renewableAt: string;
  isCancelled: boolean;
  amount: number;
  currency: string;
  card: CardDetails | null;
  invoices: { number: string; amount: number; currency: string; status: string; periodStart: string; periodEnd: string; paidAt: string | null }[];
  billing?: Record<string, string>;
  shipping?: Record<string, string>;
}

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
const picked = (values: Record<string, unknown>, fields: readonly string[]) => Object.fromEntries(fields.map((field) => [field, String(values[field] ?? '').trim()]));

/**
 * Subscriptions (issue 11). A purchase is three steps, so that no failure charges twice or
 * charges for nothing:
 * 1. reserve: a `pending` subscription row (one live row per organization, enforced by a unique
 *    index, so a second purchase or a race of two gets 409) and the coupon's redemption;
 * 2. charge the first year, with an idempotency key derived from that row;
 * 3. in one transaction: the subscription, credits, storage, renewableAt, invoice and kit.
 * A request repeated with the same idempotency key replays the stored outcome, or finishes a
 * purchase interrupted between 2 and 3 (the gateway answers the same charge again).
 */
export interface BillingServiceDeps {
  db: Db | BillingDb;
  provider: PaymentProvider;
  log: FastifyBaseLogger;
  notices?: BillingNotices | undefined;
  /**
   * Runs work the answer need not wait for (the server's `app.background.run`: a receipt is
   * sent after the reply, and shutdown waits for it). Without it (the billing job) the work is
   * awaited in line.
   */
  later?: (name: string, task: () => Promise<unknown>) => void;
}

export function billingService(deps: BillingServiceDeps) {
  const db = billingDb(deps.db);
  const { provider, log } = deps;

  async function view(row: SubscriptionRow, withDetails: boolean): Promise<SubscriptionView> {
    const plan = await findPlan(db, row.planId);
    const card = await db
      .selectFrom('paymentMethods')
      .select(['brand', 'last4', 'expMonth', 'expYear'])
      .where('providerPaymentMethodId', '=', row.paymentMethodId)
      .executeTakeFirst();
    const invoices = await db
      .selectFrom('invoices')
      .select(['number', 'amount', 'currency', 'status', 'periodStart', 'periodEnd', 'paidAt'])
      .where('subscriptionId', '=', row.id)
      .orderBy('id', 'desc')
      .execute();
    return {
      id: row.id,
      status: displayedStatus(row.status, row.isCancelled),
      state: row.status,
      plan: { id: row.planId, name: plan?.name ?? '' },
      startDate: row.startDate,
      renewableAt: row.renewableAt,
      isCancelled: row.isCancelled,
      amount: row.amount,
      currency: row.currency,
      card: card ?? null,
      invoices: invoices.map((i) => ({ ...i, paidAt: i.paidAt ? i.paidAt.toISOString() : null })),
      ...(withDetails ? { billing: row.billing, shipping: row.shipping } : {}),
    };
  }

  async function markFailed(row: SubscriptionRow, message: string): Promise<void> {
    await db.transaction().execute(async (tx) => {
      await lockOrganization(tx, row.organizationId);
      const failed = await tx
        .updateTable('subscriptions')
        .set({ status: 'failed', failureMessage: message, updatedAt: new Date() })
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .returning('id')
        .executeTakeFirst();
      if (failed && row.couponId !== null) await releaseCoupon(tx, row.couponId, row.id);
    });
  }

  /**
   * Step 3: one transaction, applied once even when two requests finish the same purchase.
   * Answers the new invoice's id, or null when the other request recorded it.
   */
  async function activate(row: SubscriptionRow, plan: PaymentPlan, paymentId: string | null): Promise<number | null> {
    const dates = { startDate: row.startDate, endDate: row.renewableAt };
    return db.transaction().execute(async (tx) => {
      await lockOrganization(tx, row.organizationId);
      const activated = await tx
        .updateTable('subscriptions')
        .set({ status: 'active', updatedAt: new Date() })
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .returning('id')
        .executeTakeFirst();
      if (!activated) return null;
      const { invoiceId, invoiceNumber } = await applyPaidTerm(tx, {
        subscriptionId: row.id,
        organizationId: row.organizationId,
        plan,
        ...dates,
        renewDate: termDates(row.startDate, plan.termMonths).renewDate,
        amount: row.amount,
        currency: row.currency,
        providerPaymentId: paymentId,
      });
      // A§2 onboarding: the first purchase orders the plan's kit; a later one does not send another.
      await tx
        .updateTable('organizations')
        .set({ kitOrdered: true, kitType: plan.kitType, kitOrderedAt: row.startDate })
        .where('id', '=', row.organizationId)
        .where('kitOrdered', '=', false)
        .execute();
      log.info({ organizationId: row.organizationId, subscriptionId: row.id, invoiceNumber, amount: row.amount }, 'subscription bought');
      return invoiceId;
    });
  }

  /** Steps 2 and 3 for a reserved row, or the stored outcome of a finished one. */
  async function finish(row: SubscriptionRow): Promise<SubscriptionRow> {
    if (row.status === 'failed') throw paymentRefused(row.failureMessage ?? BILLING_MESSAGES.createFailed);
    if (row.status !== 'pending') return row;
    const plan = await findPlan(db, row.planId);
    if (!plan) throw badRequest(BILLING_MESSAGES.planUnavailable, { fields: { paymentPlanId: BILLING_MESSAGES.planUnavailable } });
    let paymentId: string | null = null;
    // A 100% coupon: nothing to charge (gateways refuse zero amounts), the card stays for renewals.
    if (row.amount > 0) {
      const charge = await provider
        .charge({
          customerId: row.providerCustomerId ?? '',
          paymentMethodId: row.paymentMethodId,
          amount: row.amount,
          currency: row.currency,
          idempotencyKey: `cutdesk-subscription-${row.id}-first`,
          description: `Cutdesk ${plan.name}, ${row.startDate} to ${row.renewableAt}`,
          offSession: false,
        })
        .catch(async (error: unknown) => {
          if (error instanceof PaymentMethodUnusable) {
            await markFailed(row, BILLING_MESSAGES.paymentMethodInvalid);
            throw badRequest(BILLING_MESSAGES.paymentMethodInvalid, { fields: { paymentMethodId: BILLING_MESSAGES.paymentMethodInvalid } });
          }
          // The row stays pending: the same request again replays the same charge.
          log.warn({ err: error, subscriptionId: row.id }, 'payment gateway failed during a purchase');
          throw gatewayDown();
        });
      if (charge.status === 'requires_action') {
        await provider.cancel(charge.paymentId).catch((error: unknown) => log.warn({ err: error, subscriptionId: row.id }, 'could not cancel a payment awaiting authentication'));
        await markFailed(row, BILLING_MESSAGES.authenticationRequired);
        throw paymentRefused(BILLING_MESSAGES.authenticationRequired);
      }
      if (charge.status === 'declined') {
        log.info({ subscriptionId: row.id, organizationId: row.organizationId, code: charge.code }, 'subscription payment declined');
        await markFailed(row, charge.message);
        throw paymentRefused(charge.message);
      }
      paymentId = charge.paymentId;
    }
    let invoiceId: number | null;
    try {
      invoiceId = await activate(row, plan, paymentId);
    } catch (error) {
      // Paid but not recorded: give the money back rather than keep it for nothing.
      log.error({ err: error, subscriptionId: row.id }, 'subscription could not be recorded after payment; refunding');
      if (paymentId) {
        await provider
          .refund(paymentId, `cutdesk-subscription-${row.id}-refund`)
          .catch((refundError: unknown) => log.error({ err: refundError, subscriptionId: row.id, paymentId }, 'REFUND FAILED: a person must refund this payment'));
      }
      await markFailed(row, BILLING_MESSAGES.createFailed);
      throw conflict(BILLING_MESSAGES.createFailed);
    }
    // The receipt, now that the purchase is committed; a mail problem changes nothing above
    // (an unsent receipt is given back to the billing job, which retries it).
    const { notices } = deps;
    if (invoiceId !== null && notices) {
      if (deps.later) deps.later('billing receipt', () => notices.send(invoiceId));
      else await notices.send(invoiceId);
    }
    return (await subscriptionById(db, row.id))!;
  }

  async function sameOrder(earlier: SubscriptionRow, input: PurchaseInput): Promise<boolean> {
    if (earlier.planId !== input.paymentPlanId || earlier.paymentMethodId !== input.paymentMethodId) return false;
    const code = input.coupon?.trim() || null;
    const couponId = code === null ? null : isCouponCodeShape(code) ? ((await findCoupon(db, code))?.id ?? -1) : -1;
    return (earlier.couponId ?? null) === couponId;
  }

  async function customerFor(organizationId: number, name: string, email: string): Promise<string> {
    const known = await customerIdFor(db, organizationId, provider.name);
    if (known) return known;
    const created = await provider.createCustomer({ organizationId, name, email }).catch((error: unknown) => {
      log.warn({ err: error, organizationId }, 'payment gateway failed creating a customer');
      throw gatewayDown();
    });
    return saveCustomerId(db, organizationId, provider.name, created);
  }

  /** Step 1. Undefined when a request with the same key reserved first (the caller replays it). */
  async function reserve(input: PurchaseInput, plan: PaymentPlan, couponId: number | null, amount: number, customerId: string, key: string): Promise<SubscriptionRow | undefined> {
    const dates = termDates(input.today, plan.termMonths);
    try {
      return await db.transaction().execute(async (tx): Promise<SubscriptionRow | undefined> => {
        // Queues purchases of one organization behind each other.
        const organization = await tx.selectFrom('organizations').select(['renewableAt', 'deletedAt']).where('id', '=', input.organizationId).forUpdate().executeTakeFirst();
        if (!organization || organization.deletedAt) throw notFound();
        // A request with the same key got the lock first: this one replays it, whatever it did.
        const sameKey = await tx.selectFrom('subscriptions').select('id').where('organizationId', '=', input.organizationId).where('idempotencyKey', '=', key).executeTakeFirst();
        if (sameKey) return undefined;
        // A subscription set by staff (no row here) counts too, until its renewal date.
        if (organization.renewableAt && organization.renewableAt.toISOString().slice(0, 10) > input.today) throw alreadySubscribed();
        const row = await tx
          .insertInto('subscriptions')
          .values({
            organizationId: input.organizationId,
            planId: plan.id,
            status: 'pending',
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
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        if (couponId !== null && !(await redeemCoupon(tx, couponId, input.organizationId, row.id))) throw couponRefused();
        return row;
      });
    } catch (error) {
      // A deadlock or serialization failure lost to another purchase: "try again" is the truth.
      const code = (error as { code?: unknown }).code;
      if (code === '40P01' || code === '40001') throw alreadySubscribed();
      if (!isUniqueViolation(error)) throw error;
      if ((error as { constraint?: string }).constraint === 'coupon_redemptions_once') throw couponRefused();
      // A request with the same key reserved first (whichever unique index noticed it).
      if (await subscriptionByKey(db, input.organizationId, key)) return undefined;
      // subscriptions_one_live: another subscription is live or being bought.
      throw alreadySubscribed();
    }
  }

  return {
    provider,

    async plans(): Promise<PaymentPlanView[]> {
      return (await listPlans(db)).map(planView);
    },

    /** The coupon as this organization would get it; 404 with the coupon message otherwise. */
    async checkCoupon(organizationId: number, code: string, today: string) {
      if (!isCouponCodeShape(code)) throw couponRefused(404);
      const coupon = await findCoupon(db, code);
      const redeemed = coupon ? await couponRedeemedBy(db, coupon.id, organizationId) : false;
      if (!coupon || couponProblem(coupon, today, redeemed)) throw couponRefused(404);
      return { code: coupon.code, percentOff: coupon.percentOff, amountOff: coupon.amountOff, validUntil: coupon.validUntil };
    },

    /**
     * The embedded gateway's card form (Stripe mode tokenizes in the browser: 404 there). Every
     * field's problem is reported at once; the number and CVC are neither stored nor logged.
     */
    async addCard(organizationId: number, body: Record<string, unknown>, today: string) {
      if (!(provider instanceof EmbeddedGateway)) throw notFound();
      const number = typeof body.number === 'string' ? body.number : '';
      // Numbers, or digits as a form sends them ("04"); anything else is no month or year.
      const whole = (value: unknown) => (typeof value === 'number' || (typeof value === 'string' && /^\d{1,4}$/.test(value)) ? Number(value) : Number.NaN);
      const expMonth = whole(body.expMonth);
      const expYear = whole(body.expYear);
      const cvc = typeof body.cvc === 'string' || typeof body.cvc === 'number' ? String(body.cvc) : '';
      const fields: Record<string, string> = {};
      const numberProblem = cardNumberRule(number);
      if (numberProblem) fields.number = numberProblem;
      const expiry = expiryProblem(expMonth, expYear, today);
      if (expiry) fields.expiry = expiry;
      const cvcIssue = cvcProblem(cvc, cardBrand(number));
      if (cvcIssue) fields.cvc = cvcIssue;
      const first = Object.values(fields)[0];
      if (first) throw badRequest(first, { fields });
      const card = await provider.tokenizeCard({ number, expMonth, expYear });
      await savePaymentMethod(db, organizationId, provider.name, card.id, card);
      return { paymentMethodId: card.id, brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear };
    },

    async purchase(input: PurchaseInput): Promise<{ subscription: SubscriptionView; replayed: boolean }> {
      const key = input.idempotencyKey ?? randomUUID();
      const earlier = input.idempotencyKey ? await subscriptionByKey(db, input.organizationId, key) : undefined;
      if (earlier) {
        // A key names one order: the same key with another plan, card or coupon is a client's
        // mistake to be told, not an old order to be replayed as if it were the new one.
        if (!(await sameOrder(earlier, input))) throw conflict(BILLING_MESSAGES.idempotencyKeyReused);
        return { subscription: await view(await finish(earlier), true), replayed: true };
      }

      const plan = await findPlan(db, input.paymentPlanId);
      if (!plan || plan.retired) throw badRequest(BILLING_MESSAGES.planUnavailable, { fields: { paymentPlanId: BILLING_MESSAGES.planUnavailable } });
      // Refused before the gateway is asked anything; reserve() below decides for good.
      const organization = await db.selectFrom('organizations').select('renewableAt').where('id', '=', input.organizationId).executeTakeFirst();
      if (organization?.renewableAt && organization.renewableAt.toISOString().slice(0, 10) > input.today) {
        // Unless that subscription is this very request's, bought by its twin a moment ago.
        const twin = input.idempotencyKey ? await subscriptionByKey(db, input.organizationId, key) : undefined;
        if (twin) return { subscription: await view(await finish(twin), true), replayed: true };
        throw alreadySubscribed();
      }
      // A card added through another organization is not this one's to use.
      const owner = await paymentMethodOwner(db, input.paymentMethodId);
      const unusable = () => badRequest(BILLING_MESSAGES.paymentMethodInvalid, { fields: { paymentMethodId: BILLING_MESSAGES.paymentMethodInvalid } });
      if (owner !== undefined ? owner !== input.organizationId : provider.name === 'embedded') throw unusable();
      // The coupon last: its answer must not tell a guesser anything the checks above would
      // refuse anyway (the route is rate limited per address too).
      let couponId: number | null = null;
      let amount = plan.pricePerYear;
      if (input.coupon?.trim()) {
        const coupon = isCouponCodeShape(input.coupon) ? await findCoupon(db, input.coupon) : undefined;
        const redeemed = coupon ? await couponRedeemedBy(db, coupon.id, input.organizationId) : false;
        if (!coupon || couponProblem(coupon, input.today, redeemed)) throw couponRefused();
        couponId = coupon.id;
        amount = discountedPrice(plan.pricePerYear, coupon);
      }

      const customerId = await customerFor(input.organizationId, input.organizationName, input.ownerEmail);
      const card = await provider.attachPaymentMethod(customerId, input.paymentMethodId).catch((error: unknown) => {
        if (error instanceof PaymentMethodUnusable) throw unusable();
        if (error instanceof CardDeclined) throw paymentRefused(error.message);
        if (error instanceof GatewayUnavailable) throw gatewayDown();
        throw error;
      });
      await savePaymentMethod(db, input.organizationId, provider.name, input.paymentMethodId, card);

      const reserved = await reserve(input, plan, couponId, amount, customerId, key);
      // The same key won a race with this request: finish (or replay) that purchase instead.
      const row = reserved ?? (await subscriptionByKey(db, input.organizationId, key));
      if (!row) throw conflict(BILLING_MESSAGES.createFailed);
      return { subscription: await view(await finish(row), true), replayed: reserved === undefined };
    },

    /** Newest first; failed attempts and reservations in flight are not subscriptions. */
    async list(organizationId: number, withDetails: boolean): Promise<SubscriptionView[]> {
      const rows = await db
        .selectFrom('subscriptions')
        .selectAll()
        .where('organizationId', '=', organizationId)
        .where('status', 'in', ['active', 'past_due', 'ended'])
        .orderBy('id', 'desc')
        .execute();
      return Promise.all(rows.map((row) => view(row, withDetails)));
    },

    /**
     * Cancels at the end of the term: nothing is refunded, the credits and storage stay until
     * renewableAt, and the renewal job ends the subscription then instead of charging. Asking
     * twice is the same as asking once. A subscription set by staff (no row here) is marked too.
     */
    async cancel(organizationId: number, today: string): Promise<void> {
      const done = await db.transaction().execute(async (tx) => {
        const organization = await tx.selectFrom('organizations').select(['renewableAt']).where('id', '=', organizationId).forUpdate().executeTakeFirst();
        const live = await tx
          .updateTable('subscriptions')
          .set({ isCancelled: true, cancelledAt: new Date(), updatedAt: new Date() })
          .where('organizationId', '=', organizationId)
          .where('status', 'in', ['active', 'past_due'])
          .returning('id')
          .executeTakeFirst();
        const staffSet = organization?.renewableAt && organization.renewableAt.toISOString().slice(0, 10) >= today;
        if (!live && !staffSet) return false;
        await tx.updateTable('organizations').set({ isCancelled: true }).where('id', '=', organizationId).execute();
        return true;
      });
      if (!done) throw notFound(BILLING_MESSAGES.noSubscription);
      log.info({ organizationId }, 'subscription cancelled at the end of its term');
    },

    /** Used by the renewal job: finishes purchases left pending by a crash or a gateway outage. */
    finish,
  };
}

