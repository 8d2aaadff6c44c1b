import type { CardDetails } from '../billing/payment-provider.ts';
import type { GatewayCardsTable, GatewayChargesTable } from '../billing/schema.ts';
import type { Db } from '../db/connect.ts';
import type { Insertable, Selectable } from 'kysely';

/** The embedded test gateway's own records (gateway_cards, gateway_charges): they stand for a gateway's servers. */
export function embeddedGatewayRepo(db: Db) {
  return {
    async insertCard(card: Insertable<GatewayCardsTable>): Promise<void> {
      await db.insertInto('gatewayCards').values(card).execute();
    },

    /** A card belongs to the first customer it is attached to, as at Stripe: undefined when it is someone else's (or unknown). */
    async attachCard(cardId: string, customerId: string): Promise<CardDetails | undefined> {
      return db
        .updateTable('gatewayCards')
        .set({ customerId })
        .where('id', '=', cardId)
        .where((eb) => eb.or([eb('customerId', 'is', null), eb('customerId', '=', customerId)]))
        .returning(['brand', 'last4', 'expMonth', 'expYear'])
        .executeTakeFirst();
    },

    /** What charging the customer's card does (undefined: no such card of this customer). */
    async cardOutcome(cardId: string, customerId: string): Promise<GatewayCardsTable['outcome'] | undefined> {
      const card = await db.selectFrom('gatewayCards').select('outcome').where('id', '=', cardId).where('customerId', '=', customerId).executeTakeFirst();
      return card?.outcome;
    },

    /** The first charge with its key decides it; a repeat (or a race) reads that one back. */
    async chargeOnce(charge: Insertable<GatewayChargesTable>): Promise<Selectable<GatewayChargesTable>> {
      await db
        .insertInto('gatewayCharges')
        .values(charge)
        .onConflict((oc) => oc.column('idempotencyKey').doNothing())
        .execute();
      return db.selectFrom('gatewayCharges').selectAll().where('idempotencyKey', '=', charge.idempotencyKey).executeTakeFirstOrThrow();
    },

    /** Refunding twice refunds once: the amount refunded is set, not added to. */
    async refund(chargeId: string): Promise<void> {
      await db
        .updateTable('gatewayCharges')
        .set((eb) => ({ amountRefunded: eb.ref('amount') }))
        .where('id', '=', chargeId)
        .where('status', '=', 'succeeded')
        .execute();
    },

    async cancel(chargeId: string): Promise<void> {
      await db.updateTable('gatewayCharges').set({ status: 'canceled' }).where('id', '=', chargeId).where('status', '!=', 'succeeded').execute();
    },
  };
}
