import { define, nullable, number, optional, string, type, union, type Infer } from 'superstruct';
import { BILLING_FIELDS, BILLING_MESSAGES, BILLING_RULES, SHIPPING_FIELDS, type BillingField } from '../billing.ts';
import { Id, ruleField } from './fields.ts';

/** Request bodies of the billing calls (docs/api.md "Subscriptions and billing"). */

function detailsStruct<F extends BillingField>(fields: readonly F[]) {
  return type(Object.fromEntries(fields.map((field) => [field, ruleField(field, BILLING_RULES[field])])) as Record<F, ReturnType<typeof ruleField>>);
}

export const BillingDetailsStruct = detailsStruct(BILLING_FIELDS);
export const ShippingDetailsStruct = detailsStruct(SHIPPING_FIELDS);

/**
 * C§3's subscription payload. `renewableAt` is accepted and ignored (the server sets the term);
 * "card info" is the card's `paymentMethodId`, plus at most display data: a raw card number in
 * this payload is refused, so it can never be stored with the billing details.
 */
export const CreateSubscriptionBodyStruct = type({
  paymentPlanId: Id,
  paymentMethodId: define<string>('paymentMethodId', (value) => (typeof value === 'string' && /^pm_[A-Za-z0-9_]{1,200}$/.test(value)) || BILLING_MESSAGES.paymentMethodRequired),
  coupon: optional(nullable(string())),
  renewableAt: optional(nullable(union([string(), number()]))),
  billing: BillingDetailsStruct,
  shipping: ShippingDetailsStruct,
  card: optional(nullable(define<unknown>('card', (value) => !(typeof value === 'object' && value !== null && ('number' in value || 'cvc' in value)) || BILLING_MESSAGES.rawCardRefused))),
  idempotencyKey: optional(define<string>('idempotencyKey', (value) => (typeof value === 'string' && /^[\w-]{8,100}$/.test(value)) || 'Must be 8 to 100 letters, digits, - or _.')),
});
export type CreateSubscriptionBody = Infer<typeof CreateSubscriptionBodyStruct>;
