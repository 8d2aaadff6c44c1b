import { displayedStatus } from '../../src/domain/billing.ts';
import type { Db } from '../db/connect.ts';
import { billingCatalogRepo } from '../repositories/billing-catalog.ts';
import { billingCustomersRepo } from '../repositories/billing-customers.ts';
import { billingInvoicesRepo } from '../repositories/billing-invoices.ts';
import { billingSubscriptionsRepo } from '../repositories/billing-subscriptions.ts';
import type { CardDetails } from './payment-provider.ts';
import type { SubscriptionRow } from './schema.ts';

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

/** A subscription as the Subscription tab shows it; billing and shipping details only `withDetails`. */
export async function subscriptionView(db: Db, row: SubscriptionRow, withDetails: boolean): Promise<SubscriptionView> {
  const plan = await billingCatalogRepo(db).plan(row.planId);
  const card = await billingCustomersRepo(db).card(row.paymentMethodId);
  const invoices = await billingInvoicesRepo(db).listForSubscription(row.id);
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

/** The organization's subscriptions, newest first; failed attempts and reservations in flight are not subscriptions. */
export async function listSubscriptions(db: Db, organizationId: number, withDetails: boolean): Promise<SubscriptionView[]> {
  const rows = await billingSubscriptionsRepo(db).listShown(organizationId);
  return Promise.all(rows.map((row) => subscriptionView(db, row, withDetails)));
}
