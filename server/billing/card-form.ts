import { cardBrand, cardNumberRule, cvcProblem, expiryProblem } from '../../src/domain/billing.ts';
import type { Db } from '../db/connect.ts';
import { badRequest, notFound } from '../http-error.ts';
import { billingCustomersRepo } from '../repositories/billing-customers.ts';
import { EmbeddedGateway } from './embedded-gateway.ts';
import type { PaymentProvider } from './payment-provider.ts';

/**
 * The embedded gateway's card form (Stripe mode tokenizes in the browser: 404 there). Every
 * field's problem is reported at once; the number and CVC are neither stored nor logged.
 */
export async function addCard(db: Db, provider: PaymentProvider, organizationId: number, body: Record<string, unknown>, today: string) {
  if (!(provider instanceof EmbeddedGateway)) throw notFound();
  const number = typeof body.number === 'string' ? body.number : '';
  // Numbers, or digits as a form sends them ("04"); anything else is no month or year.
  const whole = (value: unknown) => (typeof value === 'number' || (typeof value === 'string' && /^\d{1,4}$/.test(value)) ? Number(value) : Number.NaN);
  const expMonth = whole(body.expMonth);
  const expYear = whole(body.expYear);
  const cvc = typeof body.cvc === 'string' || typeof body.cvc === 'number' ? String(body.cvc) : '';
  const fields: Record<string, string> = {};
  const numberProblem = cardNumberRule(number);
  if (numberProblem) fields.number = numberProblem;
  const expiry = expiryProblem(expMonth, expYear, today);
  if (expiry) fields.expiry = expiry;
  const cvcIssue = cvcProblem(cvc, cardBrand(number));
  if (cvcIssue) fields.cvc = cvcIssue;
  const first = Object.values(fields)[0];
  if (first) throw badRequest(first, { fields });
  const card = await provider.tokenizeCard({ number, expMonth, expYear });
  await billingCustomersRepo(db).saveCard(organizationId, provider.name, card.id, card);
  return { paymentMethodId: card.id, brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear };
}
