import { sql } from 'kysely';
import { CREDIT_INTERVAL_MONTHS, type PaymentPlan } from '../../src/domain/billing.ts';
import type { BillingTx } from './db.ts';

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
export async function lockOrganization(tx: BillingTx, organizationId: number): Promise<void> {
  await tx.selectFrom('organizations').select('id').where('id', '=', organizationId).forUpdate().execute();
}

const midnight = (iso: string) => new Date(`${iso}T00:00:00Z`);

/**
 * Everything a paid term changes, inside the caller's transaction: the organization's
 * renewableAt and storage, its credits (a new term starts with the first month's credits;
 * what was left of the previous term lapses with it) and the paid invoice.
 */
export async function applyPaidTerm(tx: BillingTx, term: PaidTerm): Promise<{ invoiceId: number; invoiceNumber: string }> {
  await tx
    .updateTable('organizations')
    .set({ renewableAt: midnight(term.endDate), isCancelled: false, storageTb: term.plan.storageTb })
    .where('id', '=', term.organizationId)
    .execute();
  const credits = {
    startDate: term.startDate,
    endDate: term.endDate,
    activeCredits: term.plan.monthlyCredits,
    usedCredits: 0,
    creditsPerInterval: term.plan.monthlyCredits,
    intervalMonths: CREDIT_INTERVAL_MONTHS,
    renewable: true,
    renewDate: term.renewDate,
  };
  await tx
    .insertInto('credits')
    .values({ organizationId: term.organizationId, ...credits })
    .onConflict((oc) => oc.column('organizationId').doUpdateSet(credits))
    .execute();
  const invoice = await tx
    .insertInto('invoices')
    .values({
      // CD-000001: numbered without gaps in practice and never reused (a sequence).
      number: sql<string>`'CD-' || lpad(nextval('invoice_numbers')::text, 6, '0')`,
      subscriptionId: term.subscriptionId,
      organizationId: term.organizationId,
      amount: term.amount,
      currency: term.currency,
      status: 'paid',
      periodStart: term.startDate,
      periodEnd: term.endDate,
      providerPaymentId: term.providerPaymentId,
      paidAt: new Date(),
    })
    .returning(['id', 'number'])
    .executeTakeFirstOrThrow();
  return { invoiceId: invoice.id, invoiceNumber: invoice.number };
}

/** A subscription that ran out (cancelled at its term's end, or unpaid after every retry). */
export async function endSubscription(tx: BillingTx, subscriptionId: number, organizationId: number, failureMessage: string | null): Promise<boolean> {
  const ended = await tx
    .updateTable('subscriptions')
    .set({ status: 'ended', failureMessage, updatedAt: new Date() })
    .where('id', '=', subscriptionId)
    .where('status', 'in', ['active', 'past_due'])
    .returning('id')
    .executeTakeFirst();
  if (!ended) return false;
  // A§4: no renewableAt is "inactive". Credits already granted stay usable until their end date.
  await tx.updateTable('organizations').set({ renewableAt: null }).where('id', '=', organizationId).execute();
  await tx.updateTable('credits').set({ renewable: false, renewDate: null }).where('organizationId', '=', organizationId).execute();
  return true;
}
