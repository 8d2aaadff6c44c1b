import type { Db } from '../db/connect.ts';
import type { BillingConfig } from './config.ts';
import { EmbeddedGateway } from './embedded-gateway.ts';
import { paymentProviders, type PaymentProviders } from './payment-provider.ts';

/**
 * The gateways the configuration names; the one it selects is the default. Stripe's SDK
 * (≈ 220 modules, about a tenth of a start, issue 14) is loaded only when STRIPE_SECRET_KEY
 * chooses it; `./stripe-provider.ts` is the one module that imports it, so its error classes
 * stay one instance. The embedded test gateway is not added beside Stripe: its cards are test
 * cards, and a row of it on a Stripe instance must not renew as if paid (renewals skip it).
 */
export async function createPaymentProviders(db: Db, config: BillingConfig): Promise<PaymentProviders> {
  if (config.provider === 'stripe' && config.stripe) {
    const { StripeProvider } = await import('./stripe-provider.ts');
    return paymentProviders(new StripeProvider(config.stripe));
  }
  return paymentProviders(new EmbeddedGateway(db));
}
