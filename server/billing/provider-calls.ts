import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connect.ts';
import { billingCustomersRepo } from '../repositories/billing-customers.ts';
import { CardDeclined, GatewayUnavailable, PaymentMethodUnusable, type CardDetails, type PaymentProvider } from './payment-provider.ts';
import { cardUnusable, gatewayDown, paymentRefused } from './refusals.ts';

/**
 * A purchase's calls to its gateway before anything is reserved, with the gateway's failures
 * in the checkout's terms (a refused card is a 402, an unreachable gateway a 503).
 */

/** The organization's customer at the gateway: the stored one, or a new one stored once. */
export async function customerAt(
  db: Db,
  provider: PaymentProvider,
  log: FastifyBaseLogger,
  organization: { id: number; name: string; email: string },
): Promise<string> {
  const customers = billingCustomersRepo(db);
  const known = await customers.customerId(organization.id, provider.name);
  if (known) return known;
  const created = await provider
    .createCustomer({ organizationId: organization.id, name: organization.name, email: organization.email })
    .catch((error: unknown) => {
      log.warn({ err: error, organizationId: organization.id }, 'payment gateway failed creating a customer');
      throw gatewayDown();
    });
  return customers.saveCustomerId(organization.id, provider.name, created);
}

/** Links the card to the customer and records its display details for the organization. */
export async function attachCard(db: Db, provider: PaymentProvider, organizationId: number, customerId: string, paymentMethodId: string): Promise<CardDetails> {
  const card = await provider.attachPaymentMethod(customerId, paymentMethodId).catch((error: unknown) => {
    if (error instanceof PaymentMethodUnusable) throw cardUnusable();
    if (error instanceof CardDeclined) throw paymentRefused(error.message);
    if (error instanceof GatewayUnavailable) throw gatewayDown();
    throw error;
  });
  await billingCustomersRepo(db).saveCard(organizationId, provider.name, paymentMethodId, card);
  return card;
}
