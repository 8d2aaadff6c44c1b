import { isCountryCode } from './countries.ts';
import { addMonths, nextRenewDate } from './subscription.ts';
import { FIELD_MESSAGES, emailRule, type Rule } from './validation.ts';

/**
 * Subscriptions and billing (issue 11, C§3, C§5, C§8): plans, coupons, prices, card checks,
 * the embedded gateway's test cards, renewal dates and the billing form's field rules.
 * Money is integer cents everywhere; dates are `YYYY-MM-DD` and `today` is passed in.
 */

/** C§8 word for word, plus the messages the spec leaves to us (C§5 "coupon message", card checks). */
export const BILLING_MESSAGES = {
  createFailed: 'Error while creating subscription. Try again or check if you do not already have a subscription.',
  deleteFailed: 'Error while deleting subscription. Please try again!',
  couponInvalid: 'This coupon code is not valid or has already been used.',
  planUnavailable: 'Choose one of the available plans.',
  paymentMethodRequired: 'Please add a card.',
  paymentMethodInvalid: 'This card cannot be used. Please add it again.',
  rawCardRefused: 'Card numbers are not accepted here: add the card first and send its paymentMethodId.',
  cardNumberRequired: 'Card number is required',
  cardNumberInvalid: 'Your card number is invalid.',
  expiryInvalid: "Your card's expiration date is invalid.",
  expiryPast: "Your card's expiration date is in the past.",
  cvcInvalid: "Your card's security code is invalid.",
  declined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  authenticationRequired: 'Your bank asks to confirm this payment. Please try another card.',
  noSubscription: 'Your organization has no subscription to cancel.',
  idempotencyKeyReused: 'This idempotency key was already used for a different order: send a new key with a new order.',
  gatewayUnavailable: 'The payment service did not answer. Your card was not charged twice; please try again in a few minutes.',
} as const;

/** Staff's plans and coupons (the "Plans & coupons" tab): what the server answers on a bad edit. */
export const CATALOG_MESSAGES = {
  codeRequired: 'Code is required.',
  codeShape: 'Letters, digits, - and _ only, up to 50.',
  codeExists: 'A coupon with this code exists already.',
  codeFixed: 'The code of a coupon cannot change; retire it and create a new one.',
  oneDiscount: 'Give either a percent off or an amount off, not both.',
  dateInvalid: 'Must be a date (YYYY-MM-DD).',
  maxBelowRedeemed: (timesRedeemed: number) => `Must be at least ${timesRedeemed}: the coupon was used ${timesRedeemed} times already.`,
  currencyFixed: 'The currency cannot change while subscriptions run on this plan.',
  currencyUnknown: 'Must be an ISO currency code the payment service knows, like usd or eur.',
  yearlyPrice: (monthly: number, currency: string) =>
    `Must be 12 × the monthly price (${formatMoney(monthly * 12, currency)}): plans are paid yearly, and the monthly price is what the year costs a month.`,
} as const;

/**
 * "$1,188.00", "€99.00": integer cents and a lowercase ISO currency (`usd`), as the billing API
 * sends them. The pages' (src/lib/format.ts re-exports it) and the server's messages' one way.
 */
export function formatMoney(cents: number, currency: string): string {
  const code = currency.toUpperCase();
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).format(cents / 100);
  } catch {
    // An unknown code: the amount with the code, rather than nothing.
    return `${(cents / 100).toFixed(2)} ${code}`;
  }
}

let currencies: Set<string> | null = null;

/** ISO 4217 codes the runtime knows (lowercase, as the payment providers take them). */
export function isKnownCurrency(code: string): boolean {
  currencies ??= new Set(Intl.supportedValuesOf('currency').map((c) => c.toLowerCase()));
  return currencies.has(code);
}

/**
 * A plan's two prices say the same thing: what is charged is the yearly price, and the monthly
 * price shown beside it is that year divided by 12 (a cent of rounding per month allowed).
 */
export function planPriceProblem(pricePerMonth: number, pricePerYear: number, currency: string): string | undefined {
  return Math.abs(pricePerYear - pricePerMonth * 12) <= 12 ? undefined : CATALOG_MESSAGES.yearlyPrice(pricePerMonth, currency);
}

export interface PaymentPlan {
  id: number;
  name: string;
  /** Credits granted every month of the term. */
  monthlyCredits: number;
  storageTb: number;
  /** Cents. The price per month is what the plan "costs a month" when paid yearly. */
  pricePerMonth: number;
  pricePerYear: number;
  currency: string;
  termMonths: number;
  kitType: string | null;
  retired: boolean;
}

export interface Coupon {
  code: string;
  /** 1–100; exactly one of percentOff and amountOff is set. */
  percentOff: number | null;
  /** Cents, in the plan's currency. */
  amountOff: number | null;
  /** Last day the code may be used (inclusive), or null for no end. */
  validUntil: string | null;
  maxRedemptions: number | null;
  timesRedeemed: number;
  retired: boolean;
}

/**
 * The price after a coupon: percent off rounds the discount to the nearest cent; never below 0
 * and always whole cents, whatever the coupon says.
 */
export function discountedPrice(priceCents: number, coupon: Pick<Coupon, 'percentOff' | 'amountOff'> | null): number {
  const price = Math.max(0, Math.round(priceCents));
  if (!coupon) return price;
  let discount = 0;
  if (coupon.percentOff !== null) discount = Math.round((price * Math.min(100, Math.max(0, coupon.percentOff))) / 100);
  else if (coupon.amountOff !== null) discount = Math.max(0, Math.round(coupon.amountOff));
  return Math.max(0, price - discount);
}

/**
 * Why `coupon` cannot be used by an organization today (C§5: one message for a bad or used
 * code), or undefined when it can. `alreadyRedeemed`: this organization used it before.
 */
export function couponProblem(coupon: Coupon | null | undefined, today: string, alreadyRedeemed: boolean): string | undefined {
  if (!coupon || coupon.retired || alreadyRedeemed) return BILLING_MESSAGES.couponInvalid;
  if (coupon.validUntil !== null && today > coupon.validUntil) return BILLING_MESSAGES.couponInvalid;
  if (coupon.maxRedemptions !== null && coupon.timesRedeemed >= coupon.maxRedemptions) return BILLING_MESSAGES.couponInvalid;
  return undefined;
}

/** Codes are typed by people: spaces around them and letter case do not matter. */
export function normalizeCouponCode(code: string): string {
  return code.trim().toUpperCase();
}

/** Letters, digits, - and _, up to 50: anything else cannot be a code (and is not looked up). */
export function isCouponCodeShape(code: string): boolean {
  return /^[A-Za-z0-9_-]{1,50}$/.test(code.trim());
}

// ---- Cards --------------------------------------------------------------------------------

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb' | 'unionpay' | 'unknown';

/** The digits of a card number as typed (spaces and dashes are how people group them). */
export function cardDigits(number: string): string {
  return number.replace(/[\s-]/g, '');
}

/** The Luhn checksum every card number carries; catches a mistyped digit or swapped pair. */
export function luhnValid(number: string): boolean {
  const digits = cardDigits(number);
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The brand from the number's prefix (IIN ranges as Stripe.js reads them). */
export function cardBrand(number: string): CardBrand {
  const n = cardDigits(number);
  const prefix = (length: number) => Number(n.slice(0, length));
  if (/^3[47]/.test(n)) return 'amex';
  if (/^4/.test(n)) return 'visa';
  if ((prefix(2) >= 51 && prefix(2) <= 55) || (prefix(4) >= 2221 && prefix(4) <= 2720)) return 'mastercard';
  if (/^(6011|65|64[4-9])/.test(n)) return 'discover';
  if (/^(36|30[0-5]|3095|38|39)/.test(n)) return 'diners';
  if (prefix(4) >= 3528 && prefix(4) <= 3589) return 'jcb';
  if (/^62/.test(n)) return 'unionpay';
  return 'unknown';
}

export const cardNumberRule: Rule = (value) => {
  if (!cardDigits(value)) return BILLING_MESSAGES.cardNumberRequired;
  return luhnValid(value) ? undefined : BILLING_MESSAGES.cardNumberInvalid;
};

/**
 * A card is good through the last day of its expiry month, so only an earlier month is in the
 * past. Two-digit years mean 20YY, as printed on cards.
 */
export function expiryProblem(month: number, year: number, today: string): string | undefined {
  if (!Number.isInteger(month) || !Number.isInteger(year) || month < 1 || month > 12) return BILLING_MESSAGES.expiryInvalid;
  const fullYear = year < 100 ? 2000 + year : year;
  if (fullYear > 9999) return BILLING_MESSAGES.expiryInvalid;
  const [thisYear, thisMonth] = today.split('-').map(Number) as [number, number];
  if (fullYear < thisYear || (fullYear === thisYear && month < thisMonth)) return BILLING_MESSAGES.expiryPast;
  return undefined;
}

export function fullExpiryYear(year: number): number {
  return year < 100 ? 2000 + year : year;
}

/** Three digits, four for American Express (its code is printed on the front). */
export function cvcProblem(cvc: string, brand: CardBrand): string | undefined {
  const length = brand === 'amex' ? 4 : 3;
  return new RegExp(`^\\d{${length}}$`).test(cvc) ? undefined : BILLING_MESSAGES.cvcInvalid;
}

export type DeclineCode = 'card_declined' | 'insufficient_funds';
export type ChargeOutcome = { ok: true } | { ok: false; code: DeclineCode; message: string };

/** Stripe's own wording for the test cards' declines. */
export const DECLINE_MESSAGES: Record<DeclineCode, string> = {
  card_declined: BILLING_MESSAGES.declined,
  insufficient_funds: BILLING_MESSAGES.insufficientFunds,
};

/**
 * The embedded gateway's answer for a card, by Stripe's test-card conventions: the two
 * failing numbers fail, any other Luhn-valid number succeeds.
 */
export function testCardOutcome(number: string): ChargeOutcome {
  const digits = cardDigits(number);
  if (digits === '4000000000000002') return { ok: false, code: 'card_declined', message: DECLINE_MESSAGES.card_declined };
  if (digits === '4000000000009995') return { ok: false, code: 'insufficient_funds', message: DECLINE_MESSAGES.insufficient_funds };
  return { ok: true };
}

// ---- Terms and renewals -------------------------------------------------------------------

/** Credits of a subscription renew every month (C§1, C§9). */
export const CREDIT_INTERVAL_MONTHS = 1;

/**
 * A purchase made on `today`: the term ends (and the subscription renews) `termMonths` later,
 * clamped to the month's end (Feb 29 + 12 months → Feb 28); the first monthly grant is a month
 * after the start.
 */
export function termDates(today: string, termMonths: number): { startDate: string; endDate: string; renewableAt: string; renewDate: string | null } {
  const endDate = addMonths(today, termMonths);
  return {
    startDate: today,
    endDate,
    renewableAt: endDate,
    renewDate: nextRenewDate({ startDate: today, endDate, intervalMonths: CREDIT_INTERVAL_MONTHS, renewable: true }, today),
  };
}

/**
 * The monthly grant after the one due on `due`: always counted from the term's start so a
 * month-end start keeps its day (Jan 31 → Feb 29 → Mar 31). The grant on the term's last day is
 * the yearly renewal's, not the monthly job's, so the monthly job stops before it.
 */
export function nextGrantDate(startDate: string, endDate: string, due: string): string | null {
  return nextRenewDate({ startDate, endDate, intervalMonths: CREDIT_INTERVAL_MONTHS, renewable: true }, due);
}

/** True when the monthly job grants on `renewDate` (a date before the term's end that has come). */
export function monthlyGrantDue(renewDate: string | null, endDate: string | null, today: string): boolean {
  return renewDate !== null && endDate !== null && renewDate <= today && renewDate < endDate;
}

/** Days after the renewal date on which a failed yearly charge is tried again; then the subscription lapses. */
export const CHARGE_RETRY_DAYS = [1, 3, 7] as const;

/**
 * When the yearly charge is next tried after `failedAttempts` failures (0: on the renewal
 * date itself), or null when the retries are used up and the subscription becomes inactive.
 */
export function chargeAttemptDate(renewableAt: string, failedAttempts: number): string | null {
  if (failedAttempts === 0) return renewableAt;
  const days = CHARGE_RETRY_DAYS[failedAttempts - 1];
  if (days === undefined) return null;
  const date = new Date(`${renewableAt}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Stored states of a subscription row (server/migrations/0009-billing.ts). */
export type BillingState = 'pending' | 'active' | 'past_due' | 'ended' | 'failed';

/**
 * What a customer is shown, in A§4's words: a running subscription is active (or canceled once
 * its cancellation is asked for; it still runs to the term's end); anything else is inactive.
 * A past-due one still counts as active while its retries last.
 */
export function displayedStatus(state: BillingState, isCancelled: boolean): 'active' | 'canceled' | 'inactive' {
  if (state !== 'active' && state !== 'past_due') return 'inactive';
  return isCancelled ? 'canceled' : 'active';
}

// ---- Billing and shipping fields (C§3, C§5) -------------------------------------------------

export const BILLING_FIELDS = ['name', 'company', 'phone', 'phone2', 'email', 'address', 'city', 'code', 'country'] as const;
export const SHIPPING_FIELDS = ['name', 'company', 'phone', 'address', 'city', 'code', 'country'] as const;
export type BillingField = (typeof BILLING_FIELDS)[number];

/** C§5: each field required with its own message; the country must be chosen from the list. */
export const BILLING_FIELD_MESSAGES = {
  name: 'Name is required',
  company: 'Company is required',
  phone: 'Phone is required',
  phone2: 'Second phone is required',
  email: FIELD_MESSAGES.emailRequired,
  address: 'Address is required',
  city: 'City is required',
  code: 'Postal code is required',
  country: 'Please select a country',
  tooLong: (max: number) => `Must be at most ${max} characters.`,
  phoneInvalid: 'Phone must contain digits only (a leading + is allowed).',
  controlCharacters: 'Must be one line of plain text (no line breaks or control characters).',
} as const;

export const BILLING_LIMITS: Record<BillingField, number> = {
  name: 100,
  company: 100,
  phone: 20,
  phone2: 20,
  email: 99,
  address: 200,
  city: 100,
  code: 20,
  country: 2,
};

function billingRule(field: BillingField): Rule {
  return (raw) => {
    const value = raw.trim();
    // PostgreSQL stores no NUL character, not even inside JSON: bad input, not a server error.
    if (value.includes('\u0000')) return FIELD_MESSAGES.textNul;
    // Line breaks and other control characters, or direction overrides that reorder what an
    // invoice shows, have no place in an address line: refused, not printed on a PDF.
    if (/[\p{Cc}\u202A-\u202E\u2066-\u2069]/u.test(value)) return BILLING_FIELD_MESSAGES.controlCharacters;
    if (field === 'email') return emailRule(value);
    if (field === 'country') return isCountryCode(value) ? undefined : BILLING_FIELD_MESSAGES.country;
    if (!value) return BILLING_FIELD_MESSAGES[field];
    if (value.length > BILLING_LIMITS[field]) return BILLING_FIELD_MESSAGES.tooLong(BILLING_LIMITS[field]);
    // Billing phones are international: digits, with the spaces people type and one leading +.
    if ((field === 'phone' || field === 'phone2') && !/^\+?\d{4,20}$/.test(value.replace(/[\s-]/g, ''))) return BILLING_FIELD_MESSAGES.phoneInvalid;
    return undefined;
  };
}

/** One rule per field, for the form (on blur) and the server's struct alike. */
export const BILLING_RULES = Object.fromEntries(BILLING_FIELDS.map((field) => [field, billingRule(field)])) as Record<BillingField, Rule>;

/** Field → message for every invalid field of a billing or shipping block; empty when valid. */
export function billingErrors(
  values: Partial<Record<string, unknown>>,
  fields: readonly BillingField[] = BILLING_FIELDS,
): Partial<Record<BillingField, string>> {
  const errors: Partial<Record<BillingField, string>> = {};
  for (const field of fields) {
    const value = values[field];
    const message = BILLING_RULES[field](typeof value === 'string' ? value : '');
    if (message) errors[field] = message;
  }
  return errors;
}
