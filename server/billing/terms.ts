import { CREDIT_INTERVAL_MONTHS, type PaymentPlan } from '../../src/domain/billing.ts';
import type { Db } from '../db/connect.ts';
import { billingCreditsRepo } from '../repositories/billing-credits.ts';
import { billingInvoicesRepo } from '../repositories/billing-invoices.ts';
import { billingSubscriptionsRepo } from '../repositories/billing-subscriptions.ts';

/** A term of a subscription that has just been paid: the purchase's first year or a renewal's next. */
export interface PaidTerm {
  subscriptionId: number;
  organizationId: number;
  plan: PaymentPlan;
  startDate: string;
  endDate: string;
  renewDate: string | null;
  amount: number;
  currency: string;
  providerPaymentId: string | null;
}

/**
 * Every transaction that changes an organization's subscription takes the organization's row
 * first. Purchases hold it while inserting; one order for all prevents a deadlock between a
 * purchase waiting on a subscription row and a change of that row waiting on the organization.
 */
export async function lockOrganization(tx: Db, organizationId: number): Promise<void> {
  await billingSubscriptionsRepo(tx).lockOrganization(organizationId);
}

const midnight = (iso: string) => new Date(`${iso}T00:00:00Z`);

/**
 * Everything a paid term changes, inside the caller's transaction: the organization's
 * renewableAt and storage, its credits (a new term starts with the first month's credits;
 * what was left of the previous term lapses with it) and the paid invoice.
 */
export async function applyPaidTerm(tx: Db, term: PaidTerm): Promise<{ invoiceId: number; invoiceNumber: string }> {
  await billingSubscriptionsRepo(tx).setOrganizationTerm(term.organizationId, midnight(term.endDate), term.plan.storageTb);
  await billingCreditsRepo(tx).startTerm(term.organizationId, {
    startDate: term.startDate,
    endDate: term.endDate,
    activeCredits: term.plan.monthlyCredits,
    usedCredits: 0,
    creditsPerInterval: term.plan.monthlyCredits,
    intervalMonths: CREDIT_INTERVAL_MONTHS,
    renewable: true,
    renewDate: term.renewDate,
  });
  const invoice = await billingInvoicesRepo(tx).insertPaid({
    subscriptionId: term.subscriptionId,
    organizationId: term.organizationId,
    amount: term.amount,
    currency: term.currency,
    periodStart: term.startDate,
    periodEnd: term.endDate,
    providerPaymentId: term.providerPaymentId,
  });
  return { invoiceId: invoice.id, invoiceNumber: invoice.number };
}

/** A subscription that ran out (cancelled at its term's end, or unpaid after every retry). */
export async function endSubscription(tx: Db, subscriptionId: number, organizationId: number, failureMessage: string | null): Promise<boolean> {
  const subscriptions = billingSubscriptionsRepo(tx);
  if (!(await subscriptions.end(subscriptionId, failureMessage))) return false;
  // A§4: no renewableAt is "inactive". Credits already granted stay usable until their end date.
  await subscriptions.clearOrganizationRenewal(organizationId);
  await billingCreditsRepo(tx).stopRenewing(organizationId);
  return true;
}
