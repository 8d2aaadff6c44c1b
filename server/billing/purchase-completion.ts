import { BILLING_MESSAGES, termDates, type PaymentPlan } from '../../src/domain/billing.ts';
import { conflict } from '../http-error.ts';
import { billingCatalogRepo } from '../repositories/billing-catalog.ts';
import { billingSubscriptionsRepo } from '../repositories/billing-subscriptions.ts';
import type { BillingDeps } from './deps.ts';
import { PaymentMethodUnusable, type PaymentProvider } from './payment-provider.ts';
import { cardUnusable, gatewayDown, paymentRefused, planUnavailable } from './refusals.ts';
import type { SubscriptionRow } from './schema.ts';
import { applyPaidTerm, lockOrganization } from './terms.ts';

/**
 * Steps 2 and 3 of a purchase (server/billing/purchase.ts): charge the first year, then record
 * it in one transaction. The charge goes through the gateway the reserved row names, so a
 * purchase interrupted on one instance is finished with the same gateway by any other that has it.
 */
export function purchaseCompletion(deps: BillingDeps) {
  const { db, providers, log } = deps;
  const subscriptions = billingSubscriptionsRepo(db);

  async function markFailed(row: SubscriptionRow, message: string): Promise<void> {
    await db.transaction().execute(async (tx) => {
      await lockOrganization(tx, row.organizationId);
      const failed = await billingSubscriptionsRepo(tx).markFailed(row.id, message);
      if (failed && row.couponId !== null) await billingCatalogRepo(tx).release(row.couponId, row.id);
    });
  }

  /**
   * Step 3: one transaction, applied once even when two requests finish the same purchase.
   * Answers the new invoice's id, or null when the other request recorded it.
   */
  async function activate(row: SubscriptionRow, plan: PaymentPlan, paymentId: string | null): Promise<number | null> {
    return db.transaction().execute(async (tx) => {
      await lockOrganization(tx, row.organizationId);
      const txSubscriptions = billingSubscriptionsRepo(tx);
      if (!(await txSubscriptions.activate(row.id))) return null;
      const { invoiceId, invoiceNumber } = await applyPaidTerm(tx, {
        subscriptionId: row.id,
        organizationId: row.organizationId,
        plan,
        startDate: row.startDate,
        endDate: row.renewableAt,
        renewDate: termDates(row.startDate, plan.termMonths).renewDate,
        amount: row.amount,
        currency: row.currency,
        providerPaymentId: paymentId,
      });
      await txSubscriptions.orderKitOnce(row.organizationId, plan.kitType, row.startDate);
      log.info({ organizationId: row.organizationId, subscriptionId: row.id, invoiceNumber, amount: row.amount }, 'subscription bought');
      return invoiceId;
    });
  }

  /** Step 2: the first year's charge; the payment's id, or null when nothing was to be charged. */
  async function charge(row: SubscriptionRow, plan: PaymentPlan, provider: PaymentProvider): Promise<string | null> {
    // A 100% coupon: nothing to charge (gateways refuse zero amounts), the card stays for renewals.
    if (row.amount <= 0) return null;
    const result = await provider
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
          throw cardUnusable();
        }
        // The row stays pending: the same request again replays the same charge.
        log.warn({ err: error, subscriptionId: row.id }, 'payment gateway failed during a purchase');
        throw gatewayDown();
      });
    if (result.status === 'requires_action') {
      await provider
        .cancel(result.paymentId)
        .catch((error: unknown) => log.warn({ err: error, subscriptionId: row.id }, 'could not cancel a payment awaiting authentication'));
      await markFailed(row, BILLING_MESSAGES.authenticationRequired);
      throw paymentRefused(BILLING_MESSAGES.authenticationRequired);
    }
    if (result.status === 'declined') {
      log.info({ subscriptionId: row.id, organizationId: row.organizationId, code: result.code }, 'subscription payment declined');
      await markFailed(row, result.message);
      throw paymentRefused(result.message);
    }
    return result.paymentId;
  }

  /** Steps 2 and 3 for a reserved row, or the stored outcome of a finished one. */
  async function finish(row: SubscriptionRow): Promise<SubscriptionRow> {
    if (row.status === 'failed') throw paymentRefused(row.failureMessage ?? BILLING_MESSAGES.createFailed);
    if (row.status !== 'pending') return row;
    const provider = providers.named(row.provider);
    if (!provider) {
      // Reserved through a gateway this instance does not have: left pending for one that has it.
      log.warn(
        { subscriptionId: row.id, provider: row.provider },
        `pending purchase names payment provider '${row.provider}', not configured on this instance`,
      );
      throw gatewayDown();
    }
    const plan = await billingCatalogRepo(db).plan(row.planId);
    if (!plan) throw planUnavailable();
    const paymentId = await charge(row, plan, provider);
    let invoiceId: number | null;
    try {
      invoiceId = await activate(row, plan, paymentId);
    } catch (error) {
      // Paid but not recorded: give the money back rather than keep it for nothing.
      log.error({ err: error, subscriptionId: row.id }, 'subscription could not be recorded after payment; refunding');
      if (paymentId) {
        await provider
          .refund(paymentId, `cutdesk-subscription-${row.id}-refund`)
          .catch((refundError: unknown) =>
            log.error({ err: refundError, subscriptionId: row.id, paymentId }, 'REFUND FAILED: a person must refund this payment'),
          );
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
    return (await subscriptions.byId(row.id))!;
  }

  return { finish };
}
