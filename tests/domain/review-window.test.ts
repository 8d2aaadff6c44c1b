import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  REVIEW_DAY_MS,
  REVIEW_PERIOD_LIMIT_DAYS,
  REVIEW_WINDOW_MESSAGES,
  isReviewWindowClosed,
  reviewClosesAt,
  reviewDaysElapsed,
  reviewDaysLeft,
  reviewDaysLeftRule,
  reviewPeriodMs,
  reviewPeriodProblem,
  reviewPeriodToSend,
  type ReviewWindow,
} from '../../src/domain/review-window.ts';

const START = Date.parse('2027-03-10T15:00:00Z');
const HOUR = 3_600_000;
const inReview = (reviewPeriod: number, reviewStartedAt: Date | string | null = new Date(START)): ReviewWindow => ({
  status: 'IN_REVIEW',
  reviewPeriod,
  reviewStartedAt,
});

describe('review window (C§2, C§4, A§5)', () => {
  it("closes the period's review days after it opened", () => {
    expect(reviewPeriodMs(7)).toBe(7 * REVIEW_DAY_MS);
    expect(reviewClosesAt(inReview(7))?.toISOString()).toBe('2027-03-17T15:00:00.000Z');
    expect(reviewClosesAt(inReview(7, '2027-03-10T15:00:00.000Z'))?.toISOString()).toBe('2027-03-17T15:00:00.000Z');
  });

  it('has no timer outside review, with period 0 or without a start', () => {
    for (const window of [{ ...inReview(7), status: 'APPROVED' as const }, inReview(0), inReview(7, null)]) {
      expect(reviewClosesAt(window)).toBeNull();
      expect(reviewDaysLeft(window, START)).toBe(0);
      expect(isReviewWindowClosed(window, START + 100 * REVIEW_DAY_MS)).toBe(false);
    }
  });

  it('counts a started day as a day left, and 0 once the window closed', () => {
    expect(reviewDaysLeft(inReview(7), START)).toBe(7);
    expect(reviewDaysLeft(inReview(7), START + HOUR)).toBe(7);
    expect(reviewDaysLeft(inReview(7), START + REVIEW_DAY_MS - 1)).toBe(7);
    expect(reviewDaysLeft(inReview(7), START + REVIEW_DAY_MS)).toBe(6);
    expect(reviewDaysLeft(inReview(7), START + 7 * REVIEW_DAY_MS - 1)).toBe(1);
    expect(reviewDaysLeft(inReview(7), START + 7 * REVIEW_DAY_MS)).toBe(0);
    expect(reviewDaysLeft(inReview(7), START + 30 * REVIEW_DAY_MS)).toBe(0);
    // A browser clock behind the server's: never more days than the period.
    expect(reviewDaysLeft(inReview(7), START - HOUR)).toBe(7);
  });

  it('closes exactly when the days left reach 0', () => {
    const closesAt = START + 7 * REVIEW_DAY_MS;
    expect(isReviewWindowClosed(inReview(7), closesAt - 1)).toBe(false);
    expect(isReviewWindowClosed(inReview(7), closesAt)).toBe(true);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 0, max: 500 * REVIEW_DAY_MS }), (period, offset) => {
        const now = START + offset;
        expect(isReviewWindowClosed(inReview(period), now)).toBe(reviewDaysLeft(inReview(period), now) === 0);
        // The days left are the whole days to the close, rounded up.
        expect(reviewDaysLeft(inReview(period), now)).toBe(Math.max(0, Math.ceil((START + period * REVIEW_DAY_MS - now) / REVIEW_DAY_MS)));
      }),
    );
  });

  it('counts elapsed days rounded down', () => {
    expect(reviewDaysElapsed(null, START)).toBe(0);
    expect(reviewDaysElapsed(new Date(START), START + REVIEW_DAY_MS - 1)).toBe(0);
    expect(reviewDaysElapsed(new Date(START), START + 2 * REVIEW_DAY_MS + HOUR)).toBe(2);
    expect(reviewDaysElapsed(new Date(START), START - HOUR)).toBe(0);
  });

  it('sends 0, or the elapsed days plus the days entered (A§5)', () => {
    const started = new Date(START).toISOString();
    expect(reviewPeriodToSend(0, started, START + 3 * REVIEW_DAY_MS)).toBe(0);
    expect(reviewPeriodToSend(5, null, START)).toBe(5);
    expect(reviewPeriodToSend(5, started, START + 3 * REVIEW_DAY_MS + HOUR)).toBe(8);
  });

  it('keeps the period when staff save the days shown', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 0, max: 400 * REVIEW_DAY_MS }), (period, offset) => {
        const now = START + offset;
        const shown = reviewDaysLeft(inReview(period), now);
        fc.pre(shown > 0);
        expect(reviewPeriodToSend(shown, new Date(START), now)).toBe(period);
        // …and what was entered is what is shown afterwards.
        expect(reviewDaysLeft(inReview(reviewPeriodToSend(3, new Date(START), now)), now)).toBe(3);
      }),
    );
  });

  it('allows whole periods from 0 to the limit, with the message the server answers', () => {
    expect(reviewPeriodProblem(0)).toBeUndefined();
    expect(reviewPeriodProblem(REVIEW_PERIOD_LIMIT_DAYS)).toBeUndefined();
    expect(reviewPeriodProblem(-1)).toBe(REVIEW_WINDOW_MESSAGES.notWholeDays);
    expect(reviewPeriodProblem(1.5)).toBe(REVIEW_WINDOW_MESSAGES.notWholeDays);
    expect(reviewPeriodProblem(Number.NaN)).toBe(REVIEW_WINDOW_MESSAGES.notWholeDays);
    expect(reviewPeriodProblem(REVIEW_PERIOD_LIMIT_DAYS + 1)).toBe(REVIEW_WINDOW_MESSAGES.tooLong);
  });

  it('checks the days-left field: digits only, blank is 0, and the resulting period in range', () => {
    const started = new Date(START).toISOString();
    const now = START + 10 * REVIEW_DAY_MS;
    expect(reviewDaysLeftRule('', started, now)).toBeUndefined();
    expect(reviewDaysLeftRule(' 12 ', started, now)).toBeUndefined();
    expect(reviewDaysLeftRule('-1', started, now)).toBe(REVIEW_WINDOW_MESSAGES.digitsOnly);
    expect(reviewDaysLeftRule('1.5', started, now)).toBe(REVIEW_WINDOW_MESSAGES.digitsOnly);
    expect(reviewDaysLeftRule(String(REVIEW_PERIOD_LIMIT_DAYS - 10), started, now)).toBeUndefined();
    expect(reviewDaysLeftRule(String(REVIEW_PERIOD_LIMIT_DAYS - 9), started, now)).toBe(REVIEW_WINDOW_MESSAGES.tooLong);
  });
});
