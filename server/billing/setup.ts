import type { Db } from '../db/connect.ts';
import type { BillingConfig } from './config.ts';
import { EmbeddedGateway } from './embedded-gateway.ts';
import type { PaymentProvider } from './payment-provider.ts';

/**
 * The gateway the configuration names. Stripe's SDK (≈ 220 modules, about a tenth of a start,
 * issue 14) is loaded only when STRIPE_SECRET_KEY chooses it; `./stripe-provider.ts` is the one
 * module that imports it, so its error classes stay one instance.
 */
export async function createPaymentProvider(db: Db, config: BillingConfig): Promise<PaymentProvider> {
  if (config.provider === 'stripe' && config.stripe) {
    const { StripeProvider } = await import('./stripe-provider.ts');
    return new StripeProvider(config.stripe);
  }
  return new EmbeddedGateway(db);
}
