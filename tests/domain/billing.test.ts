import { describe, expect, it } from 'vitest';
import {
  BILLING_FIELD_MESSAGES,
  BILLING_FIELDS,
  BILLING_MESSAGES,
  SHIPPING_FIELDS,
  billingErrors,
  cardBrand,
  chargeAttemptDate,
  couponProblem,
  cvcProblem,
  discountedPrice,
  displayedStatus,
  expiryProblem,
  luhnValid,
  monthlyGrantDue,
  nextGrantDate,
  normalizeCouponCode,
  termDates,
  testCardOutcome,
  type Coupon,
} from '../../src/domain/billing.ts';

const coupon = (over: Partial<Coupon> = {}): Coupon => ({
  code: 'WELCOME',
  percentOff: null,
  amountOff: null,
  validUntil: null,
  maxRedemptions: null,
  timesRedeemed: 0,
  retired: false,
  ...over,
});

describe('prices and discounts', () => {
  it('takes percent off, rounding the discount to a whole cent', () => {
    expect(discountedPrice(598800, coupon({ percentOff: 20 }))).toBe(479040);
    expect(discountedPrice(999, coupon({ percentOff: 15 }))).toBe(849); // 149.85 off → 150
    expect(discountedPrice(1000, coupon({ percentOff: 100 }))).toBe(0);
  });

  it('takes an amount off, never below zero', () => {
    expect(discountedPrice(598800, coupon({ amountOff: 10000 }))).toBe(588800);
    expect(discountedPrice(5000, coupon({ amountOff: 10000 }))).toBe(0);
  });

  it('keeps the price without a coupon and always answers whole cents', () => {
    expect(discountedPrice(598800, null)).toBe(598800);
    expect(Number.isInteger(discountedPrice(333, coupon({ percentOff: 33 })))).toBe(true);
    expect(discountedPrice(-5, null)).toBe(0);
  });
});

describe('coupons (C§5: one message for a bad or used code)', () => {
  const today = '2026-11-23';
  it('accepts a live code and refuses unknown, retired, expired, exhausted or used ones', () => {
    expect(couponProblem(coupon({ percentOff: 10 }), today, false)).toBeUndefined();
    expect(couponProblem(coupon({ percentOff: 10, validUntil: today }), today, false)).toBeUndefined();
    expect(couponProblem(undefined, today, false)).toBe(BILLING_MESSAGES.couponInvalid);
    expect(couponProblem(coupon({ retired: true }), today, false)).toBe(BILLING_MESSAGES.couponInvalid);
    expect(couponProblem(coupon({ validUntil: '2026-11-22' }), today, false)).toBe(BILLING_MESSAGES.couponInvalid);
    expect(couponProblem(coupon({ maxRedemptions: 2, timesRedeemed: 2 }), today, false)).toBe(BILLING_MESSAGES.couponInvalid);
    expect(couponProblem(coupon(), today, true)).toBe(BILLING_MESSAGES.couponInvalid);
  });

  it('reads codes without regard to case or surrounding spaces', () => {
    expect(normalizeCouponCode('  welcome10 ')).toBe('WELCOME10');
  });
});

describe('cards', () => {
  it('checks the Luhn sum', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4242 4242 4242 4242')).toBe(true);
    expect(luhnValid('4242-4242-4242-4242')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('378282246310005')).toBe(true);
    expect(luhnValid('')).toBe(false);
    expect(luhnValid('42424242424242a2')).toBe(false);
    expect(luhnValid('0000')).toBe(false);
  });

  it('names the brand from the number', () => {
    expect(cardBrand('4242424242424242')).toBe('visa');
    expect(cardBrand('5555555555554444')).toBe('mastercard');
    expect(cardBrand('2223003122003222')).toBe('mastercard');
    expect(cardBrand('378282246310005')).toBe('amex');
    expect(cardBrand('371449635398431')).toBe('amex');
    expect(cardBrand('6011111111111117')).toBe('discover');
    expect(cardBrand('3056930009020004')).toBe('diners');
    expect(cardBrand('3566002020360505')).toBe('jcb');
    expect(cardBrand('6200000000000005')).toBe('unionpay');
    expect(cardBrand('9999999999999995')).toBe('unknown');
  });

  it('refuses an expiry month already over, at month granularity', () => {
    const today = '2026-11-23';
    expect(expiryProblem(11, 2026, today)).toBeUndefined(); // good through Nov 30
    expect(expiryProblem(10, 2026, today)).toBe(BILLING_MESSAGES.expiryPast);
    expect(expiryProblem(1, 2027, today)).toBeUndefined();
    expect(expiryProblem(12, 25, today)).toBe(BILLING_MESSAGES.expiryPast);
    expect(expiryProblem(12, 30, today)).toBeUndefined(); // two-digit year: 2030
    expect(expiryProblem(13, 2027, today)).toBe(BILLING_MESSAGES.expiryInvalid);
    expect(expiryProblem(0, 2027, today)).toBe(BILLING_MESSAGES.expiryInvalid);
    expect(expiryProblem(Number.NaN, 2027, today)).toBe(BILLING_MESSAGES.expiryInvalid);
  });

  it('wants 3 CVC digits, 4 for American Express', () => {
    expect(cvcProblem('123', 'visa')).toBeUndefined();
    expect(cvcProblem('12', 'visa')).toBe(BILLING_MESSAGES.cvcInvalid);
    expect(cvcProblem('1234', 'visa')).toBe(BILLING_MESSAGES.cvcInvalid);
    expect(cvcProblem('1234', 'amex')).toBeUndefined();
    expect(cvcProblem('123', 'amex')).toBe(BILLING_MESSAGES.cvcInvalid);
    expect(cvcProblem('12a', 'visa')).toBe(BILLING_MESSAGES.cvcInvalid);
  });

  it("answers like Stripe's test cards", () => {
    expect(testCardOutcome('4242424242424242')).toEqual({ ok: true });
    expect(testCardOutcome('4000 0000 0000 0002')).toEqual({ ok: false, code: 'card_declined', message: 'Your card was declined.' });
    expect(testCardOutcome('4000000000009995')).toEqual({ ok: false, code: 'insufficient_funds', message: 'Your card has insufficient funds.' });
    expect(testCardOutcome('5555555555554444')).toEqual({ ok: true });
  });
});

describe('terms and renewal dates', () => {
  it('ends the term 12 months later and grants monthly from the start', () => {
    expect(termDates('2026-11-23', 12)).toEqual({ startDate: '2026-11-23', endDate: '2027-11-23', renewableAt: '2027-11-23', renewDate: '2026-12-23' });
  });

  it('clamps month ends and handles leap years', () => {
    expect(termDates('2028-02-29', 12)).toMatchObject({ endDate: '2029-02-28', renewDate: '2028-03-29' });
    expect(termDates('2027-01-31', 12)).toMatchObject({ endDate: '2028-01-31', renewDate: '2027-02-28' });
    expect(termDates('2028-01-31', 12).renewDate).toBe('2028-02-29');
    // Counted from the start, a month-end start keeps its day after a short month.
    expect(nextGrantDate('2027-01-31', '2028-01-31', '2027-02-28')).toBe('2027-03-31');
    expect(nextGrantDate('2027-01-31', '2028-01-31', '2027-03-31')).toBe('2027-04-30');
  });

  it('leaves the grant on the term end to the yearly renewal', () => {
    expect(nextGrantDate('2026-11-23', '2027-11-23', '2027-10-23')).toBe('2027-11-23');
    expect(monthlyGrantDue('2027-10-23', '2027-11-23', '2027-10-23')).toBe(true);
    expect(monthlyGrantDue('2027-11-23', '2027-11-23', '2027-11-30')).toBe(false);
    expect(monthlyGrantDue('2027-10-23', '2027-11-23', '2027-10-22')).toBe(false);
    expect(monthlyGrantDue(null, '2027-11-23', '2027-10-22')).toBe(false);
  });

  it('tries a failed yearly charge again on days 1, 3 and 7, then stops', () => {
    expect(chargeAttemptDate('2027-02-27', 0)).toBe('2027-02-27');
    expect(chargeAttemptDate('2027-02-27', 1)).toBe('2027-02-28');
    expect(chargeAttemptDate('2027-02-27', 2)).toBe('2027-03-02');
    expect(chargeAttemptDate('2028-02-27', 2)).toBe('2028-03-01'); // leap year
    expect(chargeAttemptDate('2027-12-28', 3)).toBe('2028-01-04');
    expect(chargeAttemptDate('2027-02-27', 4)).toBeNull();
  });
});

describe('status', () => {
  it('shows running subscriptions as active or canceled, the rest as inactive', () => {
    expect(displayedStatus('active', false)).toBe('active');
    expect(displayedStatus('active', true)).toBe('canceled');
    expect(displayedStatus('past_due', false)).toBe('active');
    expect(displayedStatus('ended', true)).toBe('inactive');
    expect(displayedStatus('pending', false)).toBe('inactive');
    expect(displayedStatus('failed', false)).toBe('inactive');
  });
});

describe('billing and shipping fields (C§5)', () => {
  const valid = {
    name: 'Bea Fern',
    company: 'Blue Fern Bakery',
    phone: '+1 555 0100',
    phone2: '5550101',
    email: 'bea@bluefern.test',
    address: '1 Main St',
    city: 'Portland',
    code: '97201',
    country: 'US',
  };

  it('accepts a complete form', () => {
    expect(billingErrors(valid)).toEqual({});
    const { phone2: _p, email: _e, ...shipping } = valid;
    expect(billingErrors(shipping, SHIPPING_FIELDS)).toEqual({});
  });

  it('gives every empty field its own message', () => {
    const errors = billingErrors({});
    expect(Object.keys(errors)).toEqual([...BILLING_FIELDS]);
    expect(new Set(Object.values(errors)).size).toBe(BILLING_FIELDS.length);
    expect(errors.country).toBe(BILLING_FIELD_MESSAGES.country);
    expect(errors.email).toBe('E-mail is required');
    expect(Object.keys(billingErrors({}, SHIPPING_FIELDS))).toEqual([...SHIPPING_FIELDS]);
  });

  it('wants a selected country, a real e-mail, phone digits and sane lengths', () => {
    expect(billingErrors({ ...valid, country: 'United States' }).country).toBe(BILLING_FIELD_MESSAGES.country);
    expect(billingErrors({ ...valid, email: 'bea@' }).email).toBe('This email address seems incorrect, please provide a valid email address.');
    expect(billingErrors({ ...valid, phone: 'call me' }).phone).toBe(BILLING_FIELD_MESSAGES.phoneInvalid);
    expect(billingErrors({ ...valid, city: 'x'.repeat(101) }).city).toBe('Must be at most 100 characters.');
    expect(billingErrors({ ...valid, name: '   ' }).name).toBe('Name is required');
  });

  it('takes only a country of the list, and no line breaks, control or direction characters (invoice lines cannot be forged)', () => {
    expect(billingErrors({ ...valid, country: 'ZZ' }).country).toBe(BILLING_FIELD_MESSAGES.country);
    expect(billingErrors({ ...valid, country: 'GB' }).country).toBeUndefined();
    expect(billingErrors({ ...valid, company: 'Co\r\nBcc: v@x.test' }).company).toBe(BILLING_FIELD_MESSAGES.controlCharacters);
    expect(billingErrors({ ...valid, name: 'Bea \u202eenruB' }).name).toBe(BILLING_FIELD_MESSAGES.controlCharacters);
    expect(billingErrors({ ...valid, address: 'Line\tTab' }).address).toBe(BILLING_FIELD_MESSAGES.controlCharacters);
    expect(billingErrors({ ...valid, name: 'Zoë Ñúñez-Łukasz 東京' }).name).toBeUndefined();
  });
});

describe('coupon code shape', () => {
  it('looks up only plausible codes', async () => {
    const { isCouponCodeShape } = await import('../../src/domain/billing.ts');
    expect(isCouponCodeShape(' welcome-10_x ')).toBe(true);
    expect(isCouponCodeShape('')).toBe(false);
    expect(isCouponCodeShape('a\u0000b')).toBe(false);
    expect(isCouponCodeShape('x'.repeat(51))).toBe(false);
    expect(billingErrors({ email: 'a\u0000@b.co' }, ['email']).email).toBe('Text cannot contain the NUL character (\\u0000).');
  });
});
