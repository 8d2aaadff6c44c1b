import { describe, expect, it } from 'vitest';
import { couponState, discountLabel } from '../../src/features/admin-settings/billing-labels.ts';
import { centsToInput, parseMoneyInput } from '../../src/features/admin-settings/money-input.ts';
import { formatMoney } from '../../src/lib/format.ts';

describe('prices typed in currency units', () => {
  it('reads what people type as integer cents, without floating-point drift', () => {
    expect(parseMoneyInput('1,490.00')).toBe(149_000);
    expect(parseMoneyInput('1490')).toBe(149_000);
    expect(parseMoneyInput(' 124.17 ')).toBe(12_417);
    expect(parseMoneyInput('49.5')).toBe(4_950);
    expect(parseMoneyInput('0.29')).toBe(29);
    expect(parseMoneyInput('.5')).toBe(50);
    expect(parseMoneyInput('$1,490')).toBe(149_000);
    expect(parseMoneyInput('12,000,000.00')).toBe(1_200_000_000);
    expect(parseMoneyInput('0')).toBe(0);
  });

  it('refuses what is not an amount', () => {
    for (const text of ['', ' ', '-5', '1.999', '1,49.00', '14,90', 'abc', '1e3', '12.3.4', ',100', '1 490']) expect(parseMoneyInput(text), text).toBeNull();
  });

  it('shows cents back the way the form reads them', () => {
    expect(centsToInput(149_000)).toBe('1,490.00');
    expect(centsToInput(12_417)).toBe('124.17');
    expect(centsToInput(5)).toBe('0.05');
    for (const cents of [0, 1, 99, 100, 12_417, 149_000, 1_200_000_000]) expect(parseMoneyInput(centsToInput(cents))).toBe(cents);
  });

  it('formats money with its currency', () => {
    expect(formatMoney(149_000, 'usd')).toBe('$1,490.00');
    expect(formatMoney(5_000, 'eur')).toBe('€50.00');
  });
});

describe('coupon labels', () => {
  const coupon = { code: 'X', percentOff: null, amountOff: null, validUntil: null, maxRedemptions: null, timesRedeemed: 0, retired: false };

  it('says "10 %" or "$50.00 off"', () => {
    expect(discountLabel({ percentOff: 10, amountOff: null }, 'usd')).toBe('10 %');
    expect(discountLabel({ percentOff: null, amountOff: 5_000 }, 'usd')).toBe('$50.00 off');
  });

  it('tells retired, expired and used-up coupons apart', () => {
    expect(couponState({ ...coupon, percentOff: 10 }, '2026-11-23')).toBe('active');
    expect(couponState({ ...coupon, retired: true, validUntil: '2020-01-01' }, '2026-11-23')).toBe('retired');
    expect(couponState({ ...coupon, validUntil: '2026-11-22' }, '2026-11-23')).toBe('expired');
    expect(couponState({ ...coupon, validUntil: '2026-11-23' }, '2026-11-23')).toBe('active');
    expect(couponState({ ...coupon, maxRedemptions: 3, timesRedeemed: 3 }, '2026-11-23')).toBe('used up');
  });
});
