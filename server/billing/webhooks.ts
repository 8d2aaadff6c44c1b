import type { FastifyBaseLogger } from 'fastify';
import type Stripe from 'stripe';
import type { Db } from '../db/connect.ts';
import { billingDb } from './db.ts';

/**
 * A verified Stripe event. Purchases and renewals learn their outcome from the API call
 * itself; events bring what happens afterwards (a refund or dispute made in Stripe's
 * dashboard). Stripe delivers at least once, so each event id is handled once.
 */
export async function handleStripeEvent(database: Db, event: Stripe.Event, log: FastifyBaseLogger): Promise<void> {
  const db = billingDb(database);
  await db.transaction().execute(async (tx) => {
    const fresh = await tx
      .insertInto('billingEvents')
      .values({ providerEventId: event.id, type: event.type })
      .onConflict((oc) => oc.column('providerEventId').doNothing())
      .returning('providerEventId')
      .executeTakeFirst();
    if (!fresh) return;
    if (event.type === 'charge.refunded') {
      const charge = event.data.object;
      const paymentIntent = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
      // Only a full refund marks the invoice refunded; a partial one is a staff matter.
      if (paymentIntent && charge.amount_refunded >= charge.amount) {
        await tx.updateTable('invoices').set({ status: 'refunded' }).where('providerPaymentId', '=', paymentIntent).execute();
      }
    }
    log.info({ eventId: event.id, type: event.type }, 'stripe event received');
  });
}
