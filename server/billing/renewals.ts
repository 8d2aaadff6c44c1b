import type { FastifyBaseLogger } from 'fastify';
import { CHARGE_RETRY_DAYS, chargeAttemptDate, monthlyGrantDue, termDates } from '../../src/domain/billing.ts';
import { businessToday } from '../../src/domain/business-calendar.ts';
import { nextRenewDate } from '../../src/domain/subscription.ts';
import type { Db } from '../db/connect.ts';
import { billingDb, type BillingDb } from './db.ts';
import type { BillingNotices } from './notices.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { findPlan } from './repository.ts';
import type { SubscriptionRow } from './schema.ts';
import { billingService } from './service.ts';
import { applyPaidTerm, endSubscription, lockOrganization } from './terms.ts';

export interface RenewalReport {
  /** Monthly credit grants made. */
  granted: number;
  /** Yearly charges that succeeded. */
  renewed: number;
  /** Yearly charges that failed (a retry follows, or the subscription ended). */
  failed: number;
  /** Subscriptions ended: cancelled at their term's end, or unpaid after every retry. */
  ended: number;
  /** Purchases left pending by an interruption and finished now. */
  resumed: number;
  /** Billing e-mails of earlier runs or requests that were still due (their send had failed). */
  mailsRetried: number;
}

export interface RenewalOptions {
  log?: FastifyBaseLogger;
  /** Receipts and failed-renewal notices; without it no e-mail is sent (tests of the money only). */
  notices?: BillingNotices | undefined;
}

const silentLog = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, child: () => silentLog, level: 'silent' } as unknown as FastifyBaseLogger;

/** Catching up after a long stop grants at most this many months per organization per run. */
const MAX_GRANTS_PER_RUN = 36;
/** A purchase still pending after this long was interrupted (its request ended long ago). */
const STALE_PENDING_MS = 15 * 60_000;

/**
 * The billing job; run it every hour or so on every instance. Each change is a conditional
 * UPDATE on the value the run read (renew date, renewal date and failure count), so two
 * instances running at once grant and charge once: the second one's update matches no row.
 * The yearly charge's idempotency key names the subscription, the renewal date and the
 * attempt, so even two instances charging at once make one payment.
 */
export async function runBillingRenewals(database: Db | BillingDb, provider: PaymentProvider, now: Date, options: RenewalOptions = {}): Promise<RenewalReport> {
  const db = billingDb(database);
  const { log = silentLog, notices } = options;
  const today = businessToday(now);
  const report: RenewalReport = { granted: 0, renewed: 0, failed: 0, ended: 0, resumed: 0, mailsRetried: 0 };
  report.granted = await grantMonthlyCredits(db, today);
  const due = await db.selectFrom('subscriptions').selectAll().where('status', 'in', ['active', 'past_due']).where('renewableAt', '<=', today).orderBy('id').execute();
  for (const subscription of due) {
    try {
      const result = await renewOne(db, provider, subscription, today, log);
      if (!result) continue;
      report[result.outcome] += 1;
      // The receipt or the failed-payment notice, after the renewal's transaction committed.
      if (result.invoiceId !== null) await notices?.send(result.invoiceId);
    } catch (error) {
      log.error({ err: error, subscriptionId: subscription.id }, 'subscription renewal failed');
    }
  }
  report.resumed = await resumeStalePurchases(db, provider, now, log, notices);
  // E-mails whose first send failed (mail server down) or whose sender died meanwhile.
  if (notices) report.mailsRetried = await notices.sendDue();
  return report;
}

/**
 * Credits renew every interval (C§1: monthly for a subscription). Unused credits roll over
 * within the term: they were paid for with the year. They lapse with the term's end date
 * (the credits are INACTIVE after it, C§4), and a new term starts from its first month's grant.
 * Works for every renewable credits row, staff-set ones included.
 */
async function grantMonthlyCredits(db: BillingDb, today: string): Promise<number> {
  const rows = await db
    .selectFrom('credits')
    .innerJoin('organizations as o', (join) => join.onRef('o.id', '=', 'credits.organizationId').on('o.deletedAt', 'is', null))
    .select(['credits.organizationId', 'credits.startDate', 'credits.endDate', 'credits.creditsPerInterval', 'credits.intervalMonths', 'credits.renewable', 'credits.renewDate'])
    .where('credits.renewable', '=', true)
    .where('credits.renewDate', '<=', today)
    .execute();
  let granted = 0;
  for (const row of rows) {
    let renewDate = row.renewDate;
    for (let i = 0; i < MAX_GRANTS_PER_RUN && monthlyGrantDue(renewDate, row.endDate, today); i++) {
      const next = nextRenewDate({ ...row, renewable: true }, renewDate!);
      const updated = await db
        .updateTable('credits')
        .set((eb) => ({ activeCredits: eb('activeCredits', '+', row.creditsPerInterval), renewDate: next }))
        .where('organizationId', '=', row.organizationId)
        .where('renewable', '=', true)
        .where('renewDate', '=', renewDate)
        .executeTakeFirst();
      // Another instance granted this month first: it also moved the date, so stop here.
      if (Number(updated.numUpdatedRows) === 0) break;
      granted += 1;
      renewDate = next;
    }
  }
  return granted;
}

type Renewal = { outcome: 'renewed' | 'failed' | 'ended'; invoiceId: number | null } | null;

async function renewOne(db: BillingDb, provider: PaymentProvider, subscription: SubscriptionRow, today: string, log: FastifyBaseLogger): Promise<Renewal> {
  // A deleted organization's subscription was cancelled with it (organization-admin softDelete);
  // asked again here so its card is never charged, whatever deleted the organization.
  const organization = await db.selectFrom('organizations').select('deletedAt').where('id', '=', subscription.organizationId).executeTakeFirst();
  if (subscription.isCancelled || !organization || organization.deletedAt !== null) {
    const ended = await db.transaction().execute(async (tx) => {
      await lockOrganization(tx, subscription.organizationId);
      return endSubscription(tx, subscription.id, subscription.organizationId, null);
    });
    if (ended) log.info({ subscriptionId: subscription.id }, 'cancelled subscription ended at its term');
    return ended ? { outcome: 'ended', invoiceId: null } : null;
  }
  const attemptDate = chargeAttemptDate(subscription.renewableAt, subscription.renewalFailures);
  if (attemptDate === null || attemptDate > today) return null;
  const plan = await findPlan(db, subscription.planId);
  if (!plan) return null;
  // Renewals are at the plan's full price: a coupon discounts the first year only.
  const amount = plan.pricePerYear;
  const next = termDates(subscription.renewableAt, plan.termMonths);
  let paymentId: string | null = null;
  let failure: string | null = null;
  if (amount > 0) {
    const charge = await provider.charge({
      customerId: subscription.providerCustomerId ?? '',
      paymentMethodId: subscription.paymentMethodId,
      amount,
      currency: plan.currency,
      idempotencyKey: `cutdesk-subscription-${subscription.id}-renewal-${subscription.renewableAt}-attempt-${subscription.renewalFailures}`,
      description: `Cutdesk ${plan.name}, ${next.startDate} to ${next.endDate}`,
      offSession: true,
    });
    if (charge.status === 'succeeded') paymentId = charge.paymentId;
    else {
      // Nobody is present to confirm a payment: one waiting for authentication is a failure.
      if (charge.status === 'requires_action') await provider.cancel(charge.paymentId).catch(() => undefined);
      failure = charge.status === 'declined' ? charge.message : 'The bank asked for a confirmation nobody could give.';
    }
  }
  const outcome = await db.transaction().execute(async (tx): Promise<Renewal | 'refund'> => {
    await lockOrganization(tx, subscription.organizationId);
    // The run's view of the subscription must still hold, or another run got here first.
    const claim = tx
      .updateTable('subscriptions')
      .where('id', '=', subscription.id)
      .where('status', 'in', ['active', 'past_due'])
      .where('renewableAt', '=', subscription.renewableAt)
      .where('renewalFailures', '=', subscription.renewalFailures);
    if (failure === null) {
      const claimed = await claim
        // A cancellation that landed while the card was being charged wins: no new term.
        .where('isCancelled', '=', false)
        .set({ status: 'active', startDate: next.startDate, renewableAt: next.renewableAt, renewalFailures: 0, amount, failureMessage: null, updatedAt: new Date() })
        .returning('id')
        .executeTakeFirst();
      if (!claimed) {
        const current = await tx.selectFrom('subscriptions').select('isCancelled').where('id', '=', subscription.id).executeTakeFirst();
        // Cancelled meanwhile: the payment just taken goes back, after this transaction.
        return current?.isCancelled && paymentId ? 'refund' : null;
      }
      const { invoiceId } = await applyPaidTerm(tx, {
        subscriptionId: subscription.id,
        organizationId: subscription.organizationId,
        plan,
        startDate: next.startDate,
        endDate: next.endDate,
        renewDate: next.renewDate,
        amount,
        currency: plan.currency,
        providerPaymentId: paymentId,
      });
      log.info({ subscriptionId: subscription.id, renewableAt: next.renewableAt }, 'subscription renewed');
      return { outcome: 'renewed', invoiceId };
    }
    const failures = subscription.renewalFailures + 1;
    const claimed = await claim.set({ status: 'past_due', renewalFailures: failures, failureMessage: failure, updatedAt: new Date() }).returning('id').executeTakeFirst();
    if (!claimed) return null;
    const invoice = await tx
      .insertInto('invoices')
      .values({
        number: `CD-F${subscription.id}-${subscription.renewableAt}-${failures}`,
        subscriptionId: subscription.id,
        organizationId: subscription.organizationId,
        amount,
        currency: plan.currency,
        status: 'failed',
        periodStart: next.startDate,
        periodEnd: next.endDate,
        providerPaymentId: null,
        paidAt: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    log.warn({ subscriptionId: subscription.id, failures }, 'subscription renewal payment failed');
    // Day 1, 3 and 7 retries used up: the subscription becomes inactive.
    if (failures > CHARGE_RETRY_DAYS.length) {
      await endSubscription(tx, subscription.id, subscription.organizationId, failure);
      return { outcome: 'ended', invoiceId: invoice.id };
    }
    return { outcome: 'failed', invoiceId: invoice.id };
  });
  if (outcome !== 'refund') return outcome;
  // A cancellation landed while the card was being charged: it wins, and the payment is given
  // back (once, by its own key; outside the transaction, as the gateway may use the database).
  await provider.refund(paymentId!, `cutdesk-subscription-${subscription.id}-renewal-${subscription.renewableAt}-refund`);
  log.info({ subscriptionId: subscription.id }, 'renewal charged while the subscription was being cancelled: refunded');
  return null;
}

async function resumeStalePurchases(db: BillingDb, provider: PaymentProvider, now: Date, log: FastifyBaseLogger, notices: BillingNotices | undefined): Promise<number> {
  const stale = await db
    .selectFrom('subscriptions')
    .selectAll()
    .where('status', '=', 'pending')
    .where('createdAt', '<', new Date(now.getTime() - STALE_PENDING_MS))
    .execute();
  const service = billingService({ db, provider, log, notices });
  let resumed = 0;
  for (const row of stale) {
    // Replays the charge with the purchase's own key: paid once at most, then recorded or failed.
    await service.finish(row).then(
      () => (resumed += 1),
      (error: unknown) => log.warn({ err: error, subscriptionId: row.id }, 'pending purchase could not be finished'),
    );
  }
  return resumed;
}
