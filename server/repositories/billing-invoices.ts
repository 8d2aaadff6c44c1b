import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';

/** A paid term's invoice. */
export interface PaidInvoice {
  subscriptionId: number;
  organizationId: number;
  amount: number;
  currency: string;
  periodStart: string;
  periodEnd: string;
  providerPaymentId: string | null;
}

/** Invoices (migration 0009) and the provider events that change them. */
export function billingInvoicesRepo(db: Db) {
  return {
    async insertPaid(invoice: PaidInvoice): Promise<{ id: number; number: string }> {
      return (
        db
          .insertInto('invoices')
          // CD-000001: numbered without gaps in practice and never reused (a sequence).
          .values({ ...invoice, number: sql<string>`'CD-' || lpad(nextval('invoice_numbers')::text, 6, '0')`, status: 'paid', paidAt: new Date() })
          .returning(['id', 'number'])
          .executeTakeFirstOrThrow()
      );
    },

    /** A failed renewal attempt's invoice (its number names the subscription, the renewal date and the attempt). */
    async insertFailed(invoice: Omit<PaidInvoice, 'providerPaymentId'> & { number: string }): Promise<number> {
      const row = await db
        .insertInto('invoices')
        .values({ ...invoice, status: 'failed', providerPaymentId: null, paidAt: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** A subscription's invoices, newest first, as its view shows them. */
    async listForSubscription(subscriptionId: number) {
      return db
        .selectFrom('invoices')
        .select(['number', 'amount', 'currency', 'status', 'periodStart', 'periodEnd', 'paidAt'])
        .where('subscriptionId', '=', subscriptionId)
        .orderBy('id', 'desc')
        .execute();
    },

    /** The invoices of that payment were fully refunded at the provider. */
    async markRefunded(providerPaymentId: string): Promise<void> {
      await db.updateTable('invoices').set({ status: 'refunded' }).where('providerPaymentId', '=', providerPaymentId).execute();
    },

    /** Records a provider event's id; false when it was recorded before (providers deliver at least once). */
    async recordEventOnce(providerEventId: string, type: string): Promise<boolean> {
      const fresh = await db
        .insertInto('billingEvents')
        .values({ providerEventId, type })
        .onConflict((oc) => oc.column('providerEventId').doNothing())
        .returning('providerEventId')
        .executeTakeFirst();
      return fresh !== undefined;
    },
  };
}
