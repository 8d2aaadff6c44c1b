import type { Db } from '../db/connect.ts';
import type { BillingConfig } from './config.ts';
import { EmbeddedGateway } from './embedded-gateway.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { StripeProvider } from './stripe-provider.ts';

/** The gateway the configuration names. */
export function createPaymentProvider(db: Db, config: BillingConfig): PaymentProvider {
  if (config.provider === 'stripe' && config.stripe) return new StripeProvider(config.stripe);
  return new EmbeddedGateway(db);
}
