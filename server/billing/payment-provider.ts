/**
 * What the billing service needs from a payment gateway (issue 11). Two implementations: the
 * embedded test gateway (default, server/billing/embedded-gateway.ts) and Stripe
 * (server/billing/stripe-provider.ts). Amounts are integer cents; a card is only ever a token
 * (`pm_…`) here, never its number.
 */
export type ProviderName = 'embedded' | 'stripe';

/** What we may keep about a card: enough to show "Visa •••• 4242, 12/30". */
export interface CardDetails {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface ChargeRequest {
  customerId: string;
  paymentMethodId: string;
  amount: number;
  currency: string;
  /** The same key always yields the same charge: a retried request never charges twice. */
  idempotencyKey: string;
  description: string;
  /** Renewals run without the customer present (Stripe: off_session). */
  offSession: boolean;
}

export type ChargeResult =
  | { status: 'succeeded'; paymentId: string }
  | { status: 'declined'; paymentId: string | null; code: string; message: string }
  /** The bank wants the cardholder to confirm (3-D Secure); the service cancels and reports it. */
  | { status: 'requires_action'; paymentId: string };

export interface PaymentProvider {
  readonly name: ProviderName;
  createCustomer(input: { organizationId: number; name: string; email: string | null }): Promise<string>;
  /** Links a tokenized card to the customer and answers its display details. */
  attachPaymentMethod(customerId: string, paymentMethodId: string): Promise<CardDetails>;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  refund(paymentId: string, idempotencyKey: string): Promise<void>;
  /** Cancels a payment that did not complete (one waiting for the cardholder's confirmation). */
  cancel(paymentId: string): Promise<void>;
}

/** The token names no card of this customer (unknown, someone else's, removed). */
export class PaymentMethodUnusable extends Error {}

/** The card was refused when it was attached (Stripe checks cards on attach too). */
export class CardDeclined extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** The gateway did not answer or failed on its side; the same idempotency key may be retried. */
export class GatewayUnavailable extends Error {}

/**
 * The gateways this instance has configured, by name. New subscriptions go through the
 * default one; anything acting on an existing subscription (a renewal, finishing an interrupted
 * purchase, a refund) goes through the gateway recorded on its row, which holds the customer,
 * card and payment ids it knows.
 */
export interface PaymentProviders {
  /** The gateway new subscriptions use (the one the configuration selects). */
  readonly default: PaymentProvider;
  /** The gateway of that name, or undefined when this instance has none configured. */
  named(name: string): PaymentProvider | undefined;
}

/** `defaultProvider` sells new subscriptions; `others` only serve the rows that name them. */
export function paymentProviders(defaultProvider: PaymentProvider, ...others: PaymentProvider[]): PaymentProviders {
  const byName = new Map<string, PaymentProvider>([...others, defaultProvider].map((provider) => [provider.name, provider]));
  return { default: defaultProvider, named: (name) => byName.get(name) };
}

/** A subscription's row names a gateway this instance has not configured. */
export class ProviderNotConfigured extends Error {
  readonly provider: string;
  constructor(provider: string) {
    super(`payment provider '${provider}' is not configured on this instance`);
    this.provider = provider;
  }
}
