import Stripe from 'stripe';
import {
  CardDeclined,
  GatewayUnavailable,
  PaymentMethodUnusable,
  type CardDetails,
  type ChargeRequest,
  type ChargeResult,
  type PaymentProvider,
} from './payment-provider.ts';

export interface StripeOptions {
  secretKey: string;
  /** Only to point the SDK at a stand-in (tests); production uses Stripe's own address. */
  host?: string | null;
  port?: number | null;
  protocol?: 'http' | 'https' | null;
}

/**
 * Stripe through its SDK. The browser tokenizes cards with Stripe.js Elements, so card numbers
 * never reach our server; we see `pm_…` ids. Each charge is a PaymentIntent confirmed at once
 * with our idempotency key: the SDK's network retries and ours replay the same payment.
 * Renewals are charged by our own job (server/billing/renewals.ts), not by Stripe Billing, so
 * both gateways follow one set of rules.
 */
export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  readonly #stripe: Stripe;

  constructor(options: StripeOptions) {
    this.#stripe = new Stripe(options.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      ...(options.host ? { host: options.host } : {}),
      ...(options.port ? { port: options.port } : {}),
      ...(options.protocol ? { protocol: options.protocol } : {}),
    });
  }

  async createCustomer(input: { organizationId: number; name: string; email: string | null }): Promise<string> {
    const customer = await this.#call(() =>
      this.#stripe.customers.create(
        { name: input.name, ...(input.email ? { email: input.email } : {}), metadata: { organizationId: String(input.organizationId) } },
        // Two purchases racing for a new organization create one Stripe customer.
        { idempotencyKey: `cutdesk-customer-${input.organizationId}` },
      ),
    );
    return customer.id;
  }

  async attachPaymentMethod(customerId: string, paymentMethodId: string): Promise<CardDetails> {
    const method = await this.#call(async () => {
      const current = await this.#stripe.paymentMethods.retrieve(paymentMethodId);
      if (current.customer && (typeof current.customer === 'string' ? current.customer : current.customer.id) === customerId) return current;
      return this.#stripe.paymentMethods.attach(paymentMethodId, { customer: customerId });
    });
    if (!method.card) throw new PaymentMethodUnusable(paymentMethodId);
    return { brand: method.card.brand, last4: method.card.last4, expMonth: method.card.exp_month, expYear: method.card.exp_year };
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    try {
      const intent = await this.#stripe.paymentIntents.create(
        {
          amount: request.amount,
          currency: request.currency,
          customer: request.customerId,
          payment_method: request.paymentMethodId,
          // Cards only, confirmed here: no redirect-based method, so no return_url is needed.
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          confirm: true,
          off_session: request.offSession,
          description: request.description,
        },
        { idempotencyKey: request.idempotencyKey },
      );
      if (intent.status === 'succeeded') return { status: 'succeeded', paymentId: intent.id };
      if (intent.status === 'requires_action') return { status: 'requires_action', paymentId: intent.id };
      const error = intent.last_payment_error;
      return {
        status: 'declined',
        paymentId: intent.id,
        code: error?.decline_code ?? error?.code ?? 'card_declined',
        message: error?.message ?? 'Your card was declined.',
      };
    } catch (error) {
      // A decline is an answer, not a failure: Stripe reports it as a card error (HTTP 402).
      if (error instanceof Stripe.errors.StripeCardError) {
        return {
          status: 'declined',
          paymentId: error.payment_intent?.id ?? null,
          code: error.decline_code ?? error.code ?? 'card_declined',
          message: error.message,
        };
      }
      throw mapError(error);
    }
  }

  async refund(paymentId: string, idempotencyKey: string): Promise<void> {
    await this.#call(() => this.#stripe.refunds.create({ payment_intent: paymentId }, { idempotencyKey }));
  }

  async cancel(paymentId: string): Promise<void> {
    await this.#call(() => this.#stripe.paymentIntents.cancel(paymentId));
  }

  /** A verified webhook event; throws when the signature does not match the raw body. */
  constructEvent(rawBody: Buffer, signature: string, secret: string): Stripe.Event {
    return this.#stripe.webhooks.constructEvent(rawBody, signature, secret);
  }

  async #call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw mapError(error);
    }
  }
}

/** Stripe's errors in the service's terms; the message of an unknown one is not shown to customers. */
function mapError(error: unknown): Error {
  if (error instanceof Stripe.errors.StripeCardError) return new CardDeclined(error.decline_code ?? error.code ?? 'card_declined', error.message);
  if (error instanceof Stripe.errors.StripeInvalidRequestError && (error.param === 'payment_method' || error.code === 'resource_missing'))
    return new PaymentMethodUnusable(error.message);
  if (error instanceof Stripe.errors.StripeError) return new GatewayUnavailable(`${error.type}: ${error.message}`);
  return error instanceof Error ? error : new Error(String(error));
}
