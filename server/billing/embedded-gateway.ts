import { randomBytes } from 'node:crypto';
import { DECLINE_MESSAGES, cardBrand, cardDigits, fullExpiryYear, testCardOutcome } from '../../src/domain/billing.ts';
import type { Db } from '../db/connect.ts';
import { embeddedGatewayRepo } from '../repositories/embedded-gateway.ts';
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
  readonly #records: ReturnType<typeof embeddedGatewayRepo>;

  constructor(db: Db) {
    this.#records = embeddedGatewayRepo(db);
  }

  /** Stripe.js's job in production: card in, `pm_…` out. The caller has checked the card's rules. */
  async tokenizeCard(card: { number: string; expMonth: number; expYear: number }): Promise<{ id: string } & CardDetails> {
    const digits = cardDigits(card.number);
    const outcome = testCardOutcome(digits);
    const details = { brand: cardBrand(digits), last4: digits.slice(-4), expMonth: card.expMonth, expYear: fullExpiryYear(card.expYear) };
    const id = newId('pm');
    await this.#records.insertCard({ id, customerId: null, ...details, outcome: outcome.ok ? 'succeeds' : outcome.code });
    return { id, ...details };
  }

  async createCustomer(): Promise<string> {
    return newId('cus');
  }

  async attachPaymentMethod(customerId: string, paymentMethodId: string): Promise<CardDetails> {
    // A card belongs to the first customer it is attached to, as at Stripe.
    const card = await this.#records.attachCard(paymentMethodId, customerId);
    if (!card) throw new PaymentMethodUnusable(paymentMethodId);
    return card;
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const outcome = await this.#records.cardOutcome(request.paymentMethodId, request.customerId);
    if (!outcome) throw new PaymentMethodUnusable(request.paymentMethodId);
    const declined = outcome === 'succeeds' ? null : { code: outcome, message: DECLINE_MESSAGES[outcome] };
    // The first request with a key decides the charge; a repeat (or a race) reads that one back.
    const charge = await this.#records.chargeOnce({
      id: newId('pi'),
      idempotencyKey: request.idempotencyKey,
      customerId: request.customerId,
      paymentMethodId: request.paymentMethodId,
      amount: request.amount,
      currency: request.currency,
      status: declined ? 'failed' : 'succeeded',
      failureCode: declined?.code ?? null,
      failureMessage: declined?.message ?? null,
    });
    if (charge.status === 'succeeded') return { status: 'succeeded', paymentId: charge.id };
    return {
      status: 'declined',
      paymentId: charge.id,
      code: charge.failureCode ?? 'card_declined',
      message: charge.failureMessage ?? DECLINE_MESSAGES.card_declined,
    };
  }

  async refund(paymentId: string): Promise<void> {
    await this.#records.refund(paymentId);
  }

  async cancel(paymentId: string): Promise<void> {
    await this.#records.cancel(paymentId);
  }
}
