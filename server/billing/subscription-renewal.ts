import type { FastifyBaseLogger } from 'fastify';
import { CHARGE_RETRY_DAYS, chargeAttemptDate, termDates } from '../../src/domain/billing.ts';
import type { Db } from '../db/connect.ts';
import { billingCatalogRepo } from '../repositories/billing-catalog.ts';
import { billingInvoicesRepo } from '../repositories/billing-invoices.ts';
import { billingSubscriptionsRepo } from '../repositories/billing-subscriptions.ts';
import { ProviderNotConfigured, type PaymentProviders } from './payment-provider.ts';
import type { SubscriptionRow } from './schema.ts';
import { applyPaidTerm, endSubscription, lockOrganization } from './terms.ts';

/** What one due subscription came to, with the invoice whose e-mail is due; null: nothing (yet, or another run did it). */
type Renewal = { outcome: 'renewed' | 'failed' | 'ended'; invoiceId: number | null } | null;

/**
 * One due subscription of the billing job (./renewals.ts): ended at its term when cancelled (or
 * its organization deleted), else charged for the next term on the day of its attempt (the
 * renewal date, then the retries of CHARGE_RETRY_DAYS) through the gateway its row names.
 * Throws ProviderNotConfigured, before anything changes, when this instance lacks that gateway.
 */
export async function renewSubscription(
  db: Db,
  providers: PaymentProviders,
  subscription: SubscriptionRow,
  today: string,
  log: FastifyBaseLogger,
): Promise<Renewal> {
  // A deleted organization's subscription was cancelled with it (organization-admin softDelete);
  // asked again here so its card is never charged, whatever deleted the organization.
  const organization = await billingSubscriptionsRepo(db).organization(subscription.organizationId);
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
  const plan = await billingCatalogRepo(db).plan(subscription.planId);
  if (!plan) return null;
  // Renewals are at the plan's full price: a coupon discounts the first year only.
  const amount = plan.pricePerYear;
  const next = termDates(subscription.renewableAt, plan.termMonths);
  const provider = providers.named(subscription.provider);
  if (!provider && amount > 0) throw new ProviderNotConfigured(subscription.provider);
  let paymentId: string | null = null;
  let failure: string | null = null;
  if (provider && amount > 0) {
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
    const subscriptions = billingSubscriptionsRepo(tx);
    // The run's view of the subscription must still hold, or another run got here first.
    if (failure === null) {
      // A cancellation that landed while the card was being charged wins: no new term.
      if (!(await subscriptions.claimRenewed(subscription, { startDate: next.startDate, renewableAt: next.renewableAt, amount }))) {
        // Cancelled meanwhile: the payment just taken goes back, after this transaction.
        return paymentId && (await subscriptions.isCancelled(subscription.id)) ? 'refund' : null;
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
    if (!(await subscriptions.claimFailedRenewal(subscription, failures, failure))) return null;
    const invoiceId = await billingInvoicesRepo(tx).insertFailed({
      number: `CD-F${subscription.id}-${subscription.renewableAt}-${failures}`,
      subscriptionId: subscription.id,
      organizationId: subscription.organizationId,
      amount,
      currency: plan.currency,
      periodStart: next.startDate,
      periodEnd: next.endDate,
    });
    log.warn({ subscriptionId: subscription.id, failures }, 'subscription renewal payment failed');
    // Day 1, 3 and 7 retries used up: the subscription becomes inactive.
    if (failures > CHARGE_RETRY_DAYS.length) {
      await endSubscription(tx, subscription.id, subscription.organizationId, failure);
      return { outcome: 'ended', invoiceId };
    }
    return { outcome: 'failed', invoiceId };
  });
  if (outcome !== 'refund') return outcome;
  // A cancellation landed while the card was being charged: it wins, and the payment is given
  // back (once, by its own key; outside the transaction, as the gateway may use the database).
  await provider!.refund(paymentId!, `cutdesk-subscription-${subscription.id}-renewal-${subscription.renewableAt}-refund`);
  log.info({ subscriptionId: subscription.id }, 'renewal charged while the subscription was being cancelled: refunded');
  return null;
}
