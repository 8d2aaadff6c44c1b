import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';

/** A claim older than this was abandoned (the process died while sending). */
const CLAIM_TIMEOUT = sql`interval '5 minutes'`;
/** Past this a receipt or dunning notice is news to nobody: the job stops trying. */
const GIVE_UP_AFTER = sql`interval '7 days'`;

/** The billing e-mails' bookkeeping on the invoices (migration 0010) and what the e-mails say. */
export function billingMailRepo(db: Db) {
  return {
    /** Claims the invoice's e-mail, unless it was sent or another sender holds a fresh claim. */
    async claim(invoiceId: number): Promise<boolean> {
      const claimed = await db
        .updateTable('invoices')
        .set({ mailClaimedAt: sql<Date>`now()` })
        .where('id', '=', invoiceId)
        .where('mailSentAt', 'is', null)
        .where((eb) => eb.or([eb('mailClaimedAt', 'is', null), eb('mailClaimedAt', '<', sql<Date>`now() - ${CLAIM_TIMEOUT}`)]))
        .returning('id')
        .executeTakeFirst();
      return claimed !== undefined;
    },

    /** Gives the claim back: the billing job sends it later. */
    async release(invoiceId: number): Promise<void> {
      await db.updateTable('invoices').set({ mailClaimedAt: null }).where('id', '=', invoiceId).execute();
    },

    async markSent(invoiceId: number): Promise<void> {
      await db
        .updateTable('invoices')
        .set({ mailSentAt: sql<Date>`now()`, mailClaimedAt: null })
        .where('id', '=', invoiceId)
        .execute();
    },

    /** Invoices whose e-mail is still due (not sent, not being sent, under a week old), oldest first. */
    async due(): Promise<number[]> {
      const rows = await db
        .selectFrom('invoices')
        .select('id')
        .where('mailSentAt', 'is', null)
        .where('status', 'in', ['paid', 'failed'])
        .where('createdAt', '>', sql<Date>`now() - ${GIVE_UP_AFTER}`)
        .where((eb) => eb.or([eb('mailClaimedAt', 'is', null), eb('mailClaimedAt', '<', sql<Date>`now() - ${CLAIM_TIMEOUT}`)]))
        .orderBy('id')
        .limit(200)
        .execute();
      return rows.map((row) => row.id);
    },

    /** The invoice with what its e-mail names: plan, organization, card, billing details. */
    async invoice(invoiceId: number) {
      return db
        .selectFrom('invoices as i')
        .innerJoin('subscriptions as s', 's.id', 'i.subscriptionId')
        .innerJoin('paymentPlans as p', 'p.id', 's.planId')
        .innerJoin('organizations as o', 'o.id', 'i.organizationId')
        .leftJoin('paymentMethods as m', 'm.providerPaymentMethodId', 's.paymentMethodId')
        .select([
          'i.id',
          'i.number',
          'i.status',
          'i.amount',
          'i.currency',
          'i.periodStart',
          'i.periodEnd',
          'i.subscriptionId',
          'i.organizationId',
          'i.providerPaymentId',
          's.billing',
          's.failureMessage',
          'p.name as planName',
          'o.name as organizationName',
          'm.brand',
          'm.last4',
        ])
        .where('i.id', '=', invoiceId)
        .executeTakeFirst();
    },

    /** The organization's owner's address (the first owner, if there were several). */
    async ownerEmail(organizationId: number): Promise<string | undefined> {
      const row = await db
        .selectFrom('users')
        .select('email')
        .where('organizationId', '=', organizationId)
        .where('role', '=', 'OWNER')
        .where('deletedAt', 'is', null)
        .orderBy('id')
        .executeTakeFirst();
      return row?.email;
    },

    /** The how-many-th failed attempt of its renewal this failed invoice records (1–4). */
    async failedAttempt(invoice: { id: number; subscriptionId: number; periodStart: string }): Promise<number> {
      const { count } = await db
        .selectFrom('invoices')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('subscriptionId', '=', invoice.subscriptionId)
        .where('status', '=', 'failed')
        .where('periodStart', '=', invoice.periodStart)
        .where('id', '<=', invoice.id)
        .executeTakeFirstOrThrow();
      return Number(count);
    },
  };
}
