import { describe, expect, it } from 'vitest';
import { BILLING_FIELD_MESSAGES, BILLING_MESSAGES } from '@/domain/billing.ts';
import type { PaymentPlanView, SubscriptionView } from '@/domain/contract/billing.ts';
import { formatMoney } from '@/lib/format.ts';
import {
  attemptKey,
  canBuy,
  cardErrors,
  cardLabel,
  checkoutErrors,
  currentSubscription,
  emptyCheckout,
  formatCardNumber,
  formatExpiryInput,
  orderSummary,
  parseExpiry,
  serverFieldErrors,
  subscriptionBody,
} from '@/features/settings/checkout.ts';
import { countryOptions } from '@/features/settings/countries.ts';

const TODAY = '2026-11-23';
const plan: PaymentPlanView = {
  id: 2,
  name: 'Growth',
  monthlyCredits: 4,
  storage: 2,
  pricePerMonth: 89900,
  pricePerYear: 1078800,
  currency: 'usd',
  termMonths: 12,
  kitType: null,
};

function subscription(id: number, status: SubscriptionView['status']): SubscriptionView {
  return {
    id,
    status,
    state: status === 'inactive' ? 'ended' : 'active',
    plan: { id: 2, name: 'Growth' },
    startDate: TODAY,
    renewableAt: '2027-11-23',
    isCancelled: status === 'canceled',
    amount: 1078800,
    currency: 'usd',
    card: null,
    invoices: [],
  };
}

function filled() {
  const values = emptyCheckout();
  Object.assign(values, {
    'billing.name': 'Bea Fern',
    'billing.company': 'Blue Fern Bakery',
    'billing.phone': '+1 555 0177',
    'billing.phone2': '5550178',
    'billing.email': 'bea@example.com',
    'billing.address': '12 Fern Street',
    'billing.city': 'Portland',
    'billing.code': '97201',
    'billing.country': 'US',
    'card.number': '4242 4242 4242 4242',
    'card.expiry': '12/34',
    'card.cvc': '123',
    'card.name': 'Bea Fern',
  });
  return values;
}

describe('which subscription the tab shows', () => {
  it('takes the first one still running, else the newest, else none', () => {
    expect(currentSubscription([])).toBeNull();
    expect(currentSubscription([subscription(3, 'inactive'), subscription(2, 'canceled')])?.id).toBe(2);
    expect(currentSubscription([subscription(3, 'inactive'), subscription(1, 'inactive')])?.id).toBe(3);
  });
  it('sells plans only when nothing runs', () => {
    expect(canBuy(null)).toBe(true);
    expect(canBuy(subscription(1, 'inactive'))).toBe(true);
    expect(canBuy(subscription(1, 'active'))).toBe(false);
    expect(canBuy(subscription(1, 'canceled'))).toBe(false);
  });
});

describe('card inputs', () => {
  it('groups the number as printed', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('3782-822463-10005')).toBe('3782 822463 10005');
    expect(formatCardNumber('4242 42ab')).toBe('4242 42');
  });
  it('adds and removes the expiry slash as people type', () => {
    expect(formatExpiryInput('1', '')).toBe('1');
    expect(formatExpiryInput('12', '1')).toBe('12/');
    expect(formatExpiryInput('12/3', '12/')).toBe('12/3');
    expect(formatExpiryInput('12', '12/')).toBe('12');
    expect(formatExpiryInput('1234', '')).toBe('12/34');
  });
  it('reads MM/YY and MM/YYYY', () => {
    expect(parseExpiry('12/34')).toEqual({ month: 12, year: 34 });
    expect(parseExpiry(' 1 / 2030 ')).toEqual({ month: 1, year: 2030 });
    expect(parseExpiry('1234')).toBeNull();
  });
  it('checks the card with the domain rules, each field with its own message', () => {
    expect(cardErrors(filled(), TODAY)).toEqual({});
    const bad = { ...filled(), 'card.number': '4242 4242 4242 4241', 'card.expiry': '10/26', 'card.cvc': '12', 'card.name': ' ' };
    expect(cardErrors(bad, TODAY)).toEqual({
      'card.number': BILLING_MESSAGES.cardNumberInvalid,
      'card.expiry': BILLING_MESSAGES.expiryPast,
      'card.cvc': BILLING_MESSAGES.cvcInvalid,
      'card.name': 'Name on card is required',
    });
    expect(cardErrors({ ...filled(), 'card.expiry': '13/30' }, TODAY)['card.expiry']).toBe(BILLING_MESSAGES.expiryInvalid);
    // The current month is still good.
    expect(cardErrors({ ...filled(), 'card.expiry': '11/26' }, TODAY)['card.expiry']).toBeUndefined();
  });
  it('shows a tokenized card by brand and last four only', () => {
    expect(cardLabel({ brand: 'visa', last4: '4242', expMonth: 3, expYear: 2034 })).toBe('Visa •••• 4242, expires 03/34');
  });
});

describe('the checkout form', () => {
  it('requires every billing field with its own message, and the country from the list', () => {
    const errors = checkoutErrors(emptyCheckout(), { sameAsBilling: true, card: 'name-only' }, TODAY);
    expect(errors['billing.name']).toBe(BILLING_FIELD_MESSAGES.name);
    expect(errors['billing.phone2']).toBe(BILLING_FIELD_MESSAGES.phone2);
    expect(errors['billing.country']).toBe('Please select a country');
    expect(Object.keys(errors).filter((k) => k.startsWith('shipping.'))).toEqual([]);
  });
  it('checks shipping only when it is not the billing address', () => {
    const errors = checkoutErrors(filled(), { sameAsBilling: false, card: 'embedded' }, TODAY);
    expect(Object.keys(errors).sort()).toEqual([
      'shipping.address',
      'shipping.city',
      'shipping.code',
      'shipping.company',
      'shipping.country',
      'shipping.name',
      'shipping.phone',
    ]);
    expect(checkoutErrors(filled(), { sameAsBilling: true, card: 'embedded' }, TODAY)).toEqual({});
  });
  it('does not check card digits the browser no longer has (tokenized or in Stripe)', () => {
    const values = { ...filled(), 'card.number': '', 'card.cvc': '' };
    expect(checkoutErrors(values, { sameAsBilling: true, card: 'name-only' }, TODAY)).toEqual({});
    expect(checkoutErrors(values, { sameAsBilling: true, card: 'embedded' }, TODAY)['card.number']).toBe(BILLING_MESSAGES.cardNumberRequired);
  });
  it('puts server messages on their fields; shipping ones on billing when copied', () => {
    const fields = {
      'billing.name': 'Name is required',
      'shipping.city': 'City is required',
      coupon: BILLING_MESSAGES.couponInvalid,
      paymentMethodId: BILLING_MESSAGES.declined,
      paymentPlanId: BILLING_MESSAGES.planUnavailable,
    };
    expect(serverFieldErrors(fields, false)).toEqual({
      form: { 'billing.name': 'Name is required', 'shipping.city': 'City is required' },
      coupon: BILLING_MESSAGES.couponInvalid,
      card: BILLING_MESSAGES.declined,
      other: BILLING_MESSAGES.planUnavailable,
    });
    expect(serverFieldErrors(fields, true).form).toEqual({ 'billing.name': 'Name is required', 'billing.city': 'City is required' });
    expect(serverFieldErrors({ number: 'x', expiry: 'y', cvc: 'z' }, true).form).toEqual({ 'card.number': 'x', 'card.expiry': 'y', 'card.cvc': 'z' });
  });
});

describe('order and body', () => {
  it('prices the term with the coupon and renews a term ahead at the full price', () => {
    expect(orderSummary(plan, null, TODAY)).toEqual({ price: 1078800, discount: 0, total: 1078800, currency: 'usd', renewsOn: '2027-11-23' });
    expect(orderSummary(plan, { code: 'WELCOME10', percentOff: 10, amountOff: null, validUntil: null }, TODAY)).toMatchObject({
      discount: 107880,
      total: 970920,
    });
    expect(orderSummary(plan, { code: 'BIG', percentOff: null, amountOff: 99_999_999, validUntil: null }, TODAY).total).toBe(0);
    expect(orderSummary(plan, null, '2028-02-29').renewsOn).toBe('2029-02-28');
  });
  it('sends the token, never the card digits, and copies billing to shipping when asked', () => {
    const body = subscriptionBody({
      values: filled(),
      sameAsBilling: true,
      planId: 2,
      coupon: 'WELCOME10',
      paymentMethodId: 'pm_abc',
      idempotencyKey: 'key-12345678',
    });
    expect(body.shipping).toEqual({
      name: 'Bea Fern',
      company: 'Blue Fern Bakery',
      phone: '+1 555 0177',
      address: '12 Fern Street',
      city: 'Portland',
      code: '97201',
      country: 'US',
    });
    expect(body.billing.phone2).toBe('5550178');
    expect(body).toMatchObject({ paymentPlanId: 2, paymentMethodId: 'pm_abc', coupon: 'WELCOME10', idempotencyKey: 'key-12345678', card: null });
    const text = JSON.stringify(body);
    expect(text).not.toContain('4242 4242');
    expect(text).not.toContain('4242424242424242');
    expect(text).not.toContain('"123"');
  });
  it('keeps one idempotency key per attempt: same order, same key; another plan, coupon or card, a new one', () => {
    let n = 0;
    const next = () => `key-${++n}`;
    const first = attemptKey(null, { planId: 2, coupon: null, paymentMethodId: 'pm_1' }, next);
    expect(attemptKey(first, { planId: 2, coupon: null, paymentMethodId: 'pm_1' }, next).key).toBe(first.key);
    expect(attemptKey(first, { planId: 3, coupon: null, paymentMethodId: 'pm_1' }, next).key).not.toBe(first.key);
    expect(attemptKey(first, { planId: 2, coupon: 'WELCOME10', paymentMethodId: 'pm_1' }, next).key).not.toBe(first.key);
    expect(attemptKey(first, { planId: 2, coupon: null, paymentMethodId: 'pm_2' }, next).key).not.toBe(first.key);
  });
});

describe('formats', () => {
  it('formats cents with the currency', () => {
    expect(formatMoney(1078800, 'usd')).toBe('$10,788.00');
    expect(formatMoney(9900, 'eur')).toBe('€99.00');
    expect(formatMoney(0, 'usd')).toBe('$0.00');
  });
  it('lists the countries by name with their ISO codes', () => {
    const countries = countryOptions();
    expect(countries.length).toBeGreaterThan(240);
    expect(countries.find((c) => c.code === 'US')?.name).toBe('United States');
    expect(countries.every((c) => /^[A-Z]{2}$/.test(c.code))).toBe(true);
  });
});
