import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/billing.ts';
import type { PaymentProvider } from '../../billing/payment-provider.ts';
import { handleStripeEvent } from '../../billing/webhooks.ts';
import { badRequest } from '../../http-error.ts';
import { route } from '../operation-route.ts';

export interface StripeWebhookOptions {
  /** This instance's Stripe gateway (it verifies the signature). */
  provider: PaymentProvider;
  webhookSecret: string;
}

/**
 * Stripe's webhook (docs/api.md "Subscriptions and billing"), registered by ./index.ts when
 * Stripe is configured with a webhook secret. Public: the signature is the authentication.
 */
export default async function stripeWebhookRoute(app: FastifyInstance, { provider, webhookSecret }: StripeWebhookOptions) {
  // Stripe's SDK is loaded only with Stripe as a gateway (server/billing/setup.ts).
  const { StripeProvider } = await import('../../billing/stripe-provider.ts');
  if (!(provider instanceof StripeProvider)) return;
  // The signature covers the exact bytes Stripe sent: keep them instead of parsed JSON.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  route(app, operations.stripeWebhook, async (_, request) => {
    const signature = request.headers['stripe-signature'];
    if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) throw badRequest('Missing Stripe signature.');
    let event;
    try {
      event = provider.constructEvent(request.body, signature, webhookSecret);
    } catch {
      throw badRequest('Invalid Stripe signature.');
    }
    await handleStripeEvent(app.ctx.db, event, request.log);
    return { received: true as const };
  });
}
