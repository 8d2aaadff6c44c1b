import type { FastifyBaseLogger } from 'fastify';
import type Stripe from 'stripe';
import type { Db } from '../db/connect.ts';
import { billingInvoicesRepo } from '../repositories/billing-invoices.ts';

/**
 * A verified Stripe event. Purchases and renewals learn their outcome from the API call
 * itself; events bring what happens afterwards (a refund or dispute made in Stripe's
 * dashboard). Stripe delivers at least once, so each event id is handled once.
 */
export async function handleStripeEvent(database: Db, event: Stripe.Event, log: FastifyBaseLogger): Promise<void> {
  // Signed by Stripe, but only its shape makes it an event: anything else is acknowledged and
  // dropped (a 500 would only make Stripe retry it for days).
  if (!isEventShape(event)) {
    log.warn('stripe webhook body without an event id and type: ignored');
    return;
  }
  await database.transaction().execute(async (tx) => {
    const invoices = billingInvoicesRepo(tx);
    if (!(await invoices.recordEventOnce(event.id, event.type))) return;
    if (event.type === 'charge.refunded' && typeof event.data?.object === 'object' && event.data.object !== null) {
      const charge = event.data.object;
      const paymentIntent = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
      // Only a full refund marks the invoice refunded; a partial one is a staff matter.
      if (paymentIntent && charge.amount_refunded >= charge.amount) {
        await invoices.markRefunded(paymentIntent);
      }
    }
    log.info({ eventId: event.id, type: event.type }, 'stripe event received');
  });
}

function isEventShape(event: unknown): event is Stripe.Event {
  if (typeof event !== 'object' || event === null) return false;
  const { id, type } = event as { id?: unknown; type?: unknown };
  return typeof id === 'string' && id.length > 0 && id.length <= 255 && typeof type === 'string' && type.length <= 255;
}
