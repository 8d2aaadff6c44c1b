import { describe, expect, it } from 'vitest';
import {
  ORGANIZATION_MESSAGES,
  blankToNull,
  optionalLinkRule,
  parseReviewPeriod,
  reviewPeriodRule,
  trackingCodeRule,
} from '../../src/domain/organization-rules.ts';
import { FIELD_MESSAGES } from '../../src/domain/validation.ts';

describe('organization fields (A§5)', () => {
  it('takes digits only for the review period, blank as 0', () => {
    expect(reviewPeriodRule('')).toBeUndefined();
    expect(parseReviewPeriod('  ')).toBe(0);
    expect(reviewPeriodRule('14')).toBeUndefined();
    expect(parseReviewPeriod('14')).toBe(14);
    expect(reviewPeriodRule('-1')).toBe(ORGANIZATION_MESSAGES.reviewPeriodDigits);
    expect(reviewPeriodRule('1.5')).toBe(ORGANIZATION_MESSAGES.reviewPeriodDigits);
    expect(reviewPeriodRule('366')).toBe(ORGANIZATION_MESSAGES.reviewPeriodTooLong);
  });

  it('caps the tracking code at 100 characters', () => {
    expect(trackingCodeRule('x'.repeat(100))).toBeUndefined();
    expect(trackingCodeRule('x'.repeat(101))).toBe(FIELD_MESSAGES.trackingTooLong);
  });

  it('lets a link be cleared, else applies the link rule', () => {
    expect(optionalLinkRule('')).toBeUndefined();
    expect(optionalLinkRule('https://drive.example.com/a')).toBeUndefined();
    expect(optionalLinkRule('drive.example.com')).toBe(FIELD_MESSAGES.linkInvalid);
    expect(blankToNull('  ')).toBeNull();
    expect(blankToNull(' a ')).toBe('a');
  });
});
