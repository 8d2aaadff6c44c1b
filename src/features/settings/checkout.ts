import {
  BILLING_FIELDS,
  BILLING_MESSAGES,
  BILLING_RULES,
  SHIPPING_FIELDS,
  cardBrand,
  cardNumberRule,
  cvcProblem,
  discountedPrice,
  expiryProblem,
  termDates,
  type BillingField,
} from '@/domain/billing.ts';
import type { CouponCheck, CreateSubscriptionBody, PaymentPlanView, SubscriptionView } from '@/domain/contract/billing.ts';

/**
 * The owner's checkout (issue 11), without React: which subscription the tab shows, the form's
 * fields and rules, the order summary and the body sent to the server. The card number and CVC
 * pass through `cardErrors` and nothing here keeps them.
 */

/** Staff signed in as the customer (me.impersonatedBy): everything shows, nothing is bought (the server answers 403). */
export const READ_ONLY_NOTE = 'Staff signed in as the customer can look, not pay.';

// ---- Which subscription ---------------------------------------------------------------------

/** The list is newest first: the first one still running (active or cancelled), else the newest. */
export function currentSubscription(list: readonly SubscriptionView[]): SubscriptionView | null {
  return list.find((s) => s.status !== 'inactive') ?? list[0] ?? null;
}

/** Plans are sold when nothing runs: no subscription, or only ended ones. */
export function canBuy(subscription: SubscriptionView | null): boolean {
  return subscription === null || subscription.status === 'inactive';
}

// ---- The form -------------------------------------------------------------------------------

export type BillingKey = `billing.${BillingField}`;
export type ShippingKey = `shipping.${(typeof SHIPPING_FIELDS)[number]}`;
export type CardKey = 'card.number' | 'card.expiry' | 'card.cvc' | 'card.name';
export type CheckoutKey = BillingKey | ShippingKey | CardKey;

export const BILLING_KEYS = BILLING_FIELDS.map((f) => `billing.${f}` as BillingKey);
export const SHIPPING_KEYS = SHIPPING_FIELDS.map((f) => `shipping.${f}` as ShippingKey);
const CARD_KEYS: CardKey[] = ['card.number', 'card.expiry', 'card.cvc', 'card.name'];

export function emptyCheckout(): Record<CheckoutKey, string> {
  return Object.fromEntries([...BILLING_KEYS, ...SHIPPING_KEYS, ...CARD_KEYS].map((k) => [k, ''])) as Record<CheckoutKey, string>;
}

export const CARD_MESSAGES = {
  nameRequired: 'Name on card is required',
  expiryRequired: 'Expiration date is required (MM/YY)',
} as const;

/** "MM/YY" (or MM/YYYY) as typed; null when it is not a date at all. */
export function parseExpiry(value: string): { month: number; year: number } | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!match) return null;
  return { month: Number(match[1]), year: Number(match[2]) };
}

/** Digits in groups as printed on the card (4-6-5 for American Express), at most 19 digits. */
export function formatCardNumber(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 19);
  const groups = cardBrand(digits) === 'amex' ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const parts: string[] = [];
  let at = 0;
  for (const size of groups) {
    if (at >= digits.length) break;
    parts.push(digits.slice(at, at + size));
    at += size;
  }
  return parts.join(' ');
}

/** "1", "12", "12/3", "12/34": the slash comes by itself after the month. */
export function formatExpiryInput(value: string, previous: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  // Deleting the slash deletes it, instead of putting it back at once.
  if (previous.endsWith('/') && value.length < previous.length) return digits.slice(0, 2);
  if (digits.length < 2) return digits;
  if (digits.length === 2) return value.includes('/') || value.length > previous.length ? `${digits}/` : digits;
  return `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

/** The browser's checks of an embedded-form card, the same the server makes (domain rules). */
export function cardErrors(values: Pick<Record<CheckoutKey, string>, CardKey>, today: string): Partial<Record<CardKey, string>> {
  const errors: Partial<Record<CardKey, string>> = {};
  const number = cardNumberRule(values['card.number']);
  if (number) errors['card.number'] = number;
  if (!values['card.expiry'].trim()) errors['card.expiry'] = CARD_MESSAGES.expiryRequired;
  else {
    const expiry = parseExpiry(values['card.expiry']);
    const problem = expiry ? expiryProblem(expiry.month, expiry.year, today) : BILLING_MESSAGES.expiryInvalid;
    if (problem) errors['card.expiry'] = problem;
  }
  const cvc = cvcProblem(values['card.cvc'].trim(), cardBrand(values['card.number']));
  if (cvc) errors['card.cvc'] = cvc;
  if (!values['card.name'].trim()) errors['card.name'] = CARD_MESSAGES.nameRequired;
  return errors;
}

export interface CheckoutMode {
  /** Shipping is the billing address: its fields are neither shown nor checked. */
  sameAsBilling: boolean;
  /**
   * Which card fields the browser checks: all four in the embedded form before it is
   * tokenized; only the name once a card is tokenized or when Stripe's element holds the card.
   */
  card: 'embedded' | 'name-only';
}

/** Every invalid field of the form, each with its own message (C§5). */
export function checkoutErrors(values: Record<CheckoutKey, string>, mode: CheckoutMode, today: string): Partial<Record<CheckoutKey, string>> {
  const errors: Partial<Record<CheckoutKey, string>> = {};
  for (const field of BILLING_FIELDS) {
    const message = BILLING_RULES[field](values[`billing.${field}`]);
    if (message) errors[`billing.${field}`] = message;
  }
  if (!mode.sameAsBilling) {
    for (const field of SHIPPING_FIELDS) {
      const message = BILLING_RULES[field](values[`shipping.${field}`]);
      if (message) errors[`shipping.${field}`] = message;
    }
  }
  if (mode.card === 'embedded') Object.assign(errors, cardErrors(values, today));
  else if (!values['card.name'].trim()) errors['card.name'] = CARD_MESSAGES.nameRequired;
  return errors;
}

/**
 * The server's field messages (400 of POST subscriptions or POST payment-methods) on the form's
 * fields. `card` gathers what belongs to the card as a whole (paymentMethodId); `coupon` and
 * `other` (paymentPlanId, unknown keys) are shown by the coupon field and above the button.
 */
export function serverFieldErrors(
  fields: Record<string, string>,
  sameAsBilling: boolean,
): { form: Partial<Record<CheckoutKey, string>>; card?: string; coupon?: string; other?: string } {
  const form: Partial<Record<CheckoutKey, string>> = {};
  const out: { form: Partial<Record<CheckoutKey, string>>; card?: string; coupon?: string; other?: string } = { form };
  const cardFields: Record<string, CardKey> = { number: 'card.number', expiry: 'card.expiry', cvc: 'card.cvc', name: 'card.name' };
  for (const [key, message] of Object.entries(fields)) {
    if (key.startsWith('billing.') && (BILLING_KEYS as string[]).includes(key)) form[key as BillingKey] = message;
    else if (key.startsWith('shipping.') && (SHIPPING_KEYS as string[]).includes(key)) {
      // Shipping copied from billing: the field to fix is the billing one.
      const target = sameAsBilling ? (`billing.${key.slice('shipping.'.length)}` as BillingKey) : (key as ShippingKey);
      form[target] ??= message;
    } else if (key in cardFields) form[cardFields[key]!] = message;
    else if (key === 'paymentMethodId') out.card = message;
    else if (key === 'coupon') out.coupon = message;
    else out.other ??= message;
  }
  return out;
}

// ---- Price and body -------------------------------------------------------------------------

export interface OrderSummary {
  /** The plan's price for one term, cents. */
  price: number;
  discount: number;
  total: number;
  currency: string;
  /** One term after today: the subscription renews then, at `price`. */
  renewsOn: string;
}

export function orderSummary(plan: PaymentPlanView, coupon: CouponCheck | null, today: string): OrderSummary {
  const total = discountedPrice(plan.pricePerYear, coupon);
  return {
    price: plan.pricePerYear,
    discount: plan.pricePerYear - total,
    total,
    currency: plan.currency,
    renewsOn: termDates(today, plan.termMonths).renewableAt,
  };
}

/** "10% off" or "$100.00 off" (the amount already formatted by the caller). */
export function couponLabel(coupon: CouponCheck, formatAmount: (cents: number) => string): string {
  return coupon.percentOff !== null ? `${coupon.percentOff}% off` : `${formatAmount(coupon.amountOff ?? 0)} off`;
}

function details(values: Record<CheckoutKey, string>, prefix: 'billing' | 'shipping', fields: readonly BillingField[]): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [f, values[`${prefix}.${f}` as CheckoutKey]?.trim() ?? '']));
}

/** C§3's payload: the card only as its `paymentMethodId`, shipping copied from billing when asked. */
export function subscriptionBody(input: {
  values: Record<CheckoutKey, string>;
  sameAsBilling: boolean;
  planId: number;
  coupon: string | null;
  paymentMethodId: string;
  idempotencyKey: string;
}): CreateSubscriptionBody {
  const billing = details(input.values, 'billing', BILLING_FIELDS);
  const shipping = input.sameAsBilling ? Object.fromEntries(SHIPPING_FIELDS.map((f) => [f, billing[f]!])) : details(input.values, 'shipping', SHIPPING_FIELDS);
  return {
    paymentPlanId: input.planId,
    paymentMethodId: input.paymentMethodId,
    coupon: input.coupon,
    billing: billing as CreateSubscriptionBody['billing'],
    shipping: shipping as CreateSubscriptionBody['shipping'],
    // C§3's "card info": nothing but the token above; the number never travels with the order.
    card: null,
    idempotencyKey: input.idempotencyKey,
  };
}

/**
 * One idempotency key per checkout attempt: a retry of the same order (same plan, coupon and
 * card) keeps it, so a lost answer is never charged twice; another plan, coupon or card is a
 * new attempt (the old key would replay the old outcome, a decline included).
 */
export function attemptKey(
  current: { key: string; signature: string } | null,
  order: { planId: number; coupon: string | null; paymentMethodId: string },
  newKey: () => string,
): { key: string; signature: string } {
  const signature = `${order.planId}|${order.coupon ?? ''}|${order.paymentMethodId}`;
  return current?.signature === signature ? current : { key: newKey(), signature };
}

/** The card's digits stay in the inputs only: this is what may be shown of a tokenized card. */
export function cardLabel(card: { brand: string; last4: string; expMonth: number; expYear: number }): string {
  const brand = card.brand === 'unknown' ? 'Card' : card.brand === 'amex' ? 'American Express' : card.brand.charAt(0).toUpperCase() + card.brand.slice(1);
  return `${brand} •••• ${card.last4}, expires ${String(card.expMonth).padStart(2, '0')}/${String(card.expYear % 100).padStart(2, '0')}`;
}
