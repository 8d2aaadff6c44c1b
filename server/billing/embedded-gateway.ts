import { randomBytes } from 'node:crypto';
import { DECLINE_MESSAGES, cardBrand, cardDigits, fullExpiryYear, testCardOutcome } from '../../src/domain/billing.ts';
import type { Db } from '../db/connect.ts';
import { billingDb, type BillingDb } from './db.ts';
import { PaymentMethodUnusable, type CardDetails, type ChargeRequest, type ChargeResult, type PaymentProvider } from './payment-provider.ts';

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, '0')}`;

/**
 * The default gateway, so `npm start` can sell subscriptions with no account anywhere. It
 * follows Stripe's test-card conventions and keeps, like Stripe, only a token per card: the
 * number is read once to decide the brand, last four digits and the test outcome, then
 * dropped. Its tables (gateway_cards, gateway_charges) stand for the gateway's own servers.
 */
export class EmbeddedGateway implements PaymentProvider {
  readonly name = 'embedded' as const;
  readonly #db: BillingDb;

  constructor(db: Db | BillingDb) {
    this.#db = billingDb(db);
  }

  /** Stripe.js's job in production: card in, `pm_…` out. The caller has checked the card's rules. */
  async tokenizeCard(card: { number: string; expMonth: number; expYear: number }): Promise<{ id: string } & CardDetails> {
    const digits = cardDigits(card.number);
    const outcome = testCardOutcome(digits);
    const details = { brand: cardBrand(digits), last4: digits.slice(-4), expMonth: card.expMonth, expYear: fullExpiryYear(card.expYear) };
    const id = newId('pm');
    await this.#db
      .insertInto('gatewayCards')
      .values({ id, customerId: null, ...details, outcome: outcome.ok ? 'succeeds' : outcome.code })
      .execute();
    return { id, ...details };
  }

  async createCustomer(): Promise<string> {
    return newId('cus');
  }

  async attachPaymentMethod(customerId: string, paymentMethodId: string): Promise<CardDetails> {
    // A card belongs to the first customer it is attached to, as at Stripe.
    const card = await this.#db
      .updateTable('gatewayCards')
      .set({ customerId })
      .where('id', '=', paymentMethodId)
      .where((eb) => eb.or([eb('customerId', 'is', null), eb('customerId', '=', customerId)]))
      .returning(['brand', 'last4', 'expMonth', 'expYear'])
      .executeTakeFirst();
    if (!card) throw new PaymentMethodUnusable(paymentMethodId);
    return card;
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const card = await this.#db
      .selectFrom('gatewayCards')
      .select('outcome')
      .where('id', '=', request.paymentMethodId)
      .where('customerId', '=', request.customerId)
      .executeTakeFirst();
    if (!card) throw new PaymentMethodUnusable(request.paymentMethodId);
    const declined = card.outcome === 'succeeds' ? null : { code: card.outcome, message: DECLINE_MESSAGES[card.outcome] };
    // The first request with a key decides the charge; a repeat (or a race) reads that one back.
    await this.#db
      .insertInto('gatewayCharges')
      .values({
        id: newId('pi'),
        idempotencyKey: request.idempotencyKey,
        customerId: request.customerId,
        paymentMethodId: request.paymentMethodId,
        amount: request.amount,
        currency: request.currency,
        status: declined ? 'failed' : 'succeeded',
        failureCode: declined?.code ?? null,
        failureMessage: declined?.message ?? null,
      })
      .onConflict((oc) => oc.column('idempotencyKey').doNothing())
      .execute();
    const charge = await this.#db.selectFrom('gatewayCharges').selectAll().where('idempotencyKey', '=', request.idempotencyKey).executeTakeFirstOrThrow();
    if (charge.status === 'succeeded') return { status: 'succeeded', paymentId: charge.id };
    return { status: 'declined', paymentId: charge.id, code: charge.failureCode ?? 'card_declined', message: charge.failureMessage ?? DECLINE_MESSAGES.card_declined };
  }

  async refund(paymentId: string): Promise<void> {
    // Refunding twice refunds once: the amount refunded is set, not added to.
    await this.#db.updateTable('gatewayCharges').set((eb) => ({ amountRefunded: eb.ref('amount') })).where('id', '=', paymentId).where('status', '=', 'succeeded').execute();
  }

  async cancel(paymentId: string): Promise<void> {
    await this.#db.updateTable('gatewayCharges').set({ status: 'canceled' }).where('id', '=', paymentId).where('status', '!=', 'succeeded').execute();
  }
}
