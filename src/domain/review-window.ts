import type { ProjectStatus } from './project-status.ts';

/**
 * The review window (C§2, C§4, A§5): when staff send a project to review, the customer has
 * `reviewPeriod` days from `reviewStartedAt`; when the window closes the project is approved
 * (the server's job). One definition for the days left the portals show, the days already
 * elapsed that staff's "days left" field adds to, the moment the job completes the project,
 * and the range the server accepts.
 *
 * A review day is 24 hours from the moment the review started (not a calendar day): the
 * window closes at the same time of day it opened, on every instance, in every zone.
 */
export const REVIEW_DAY_MS = 86_400_000;
/** The longest review period a project may have, elapsed days included (about ten years). */
export const REVIEW_PERIOD_LIMIT_DAYS = 3650;

export const REVIEW_WINDOW_MESSAGES = {
  notWholeDays: 'The review period is a whole number of days, 0 or more.',
  tooLong: `The review period can be at most ${REVIEW_PERIOD_LIMIT_DAYS} days, days already elapsed included.`,
  digitsOnly: 'Digits only, 0 or more.',
} as const;

export interface ReviewWindow {
  status: ProjectStatus;
  /** Days; 0 means no timer. */
  reviewPeriod: number;
  reviewStartedAt: Date | string | null;
}

const instant = (value: Date | string | number) => (value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value));

/** Length of a review period of `days` days, in milliseconds (what the server's SQL adds). */
export function reviewPeriodMs(days: number): number {
  return days * REVIEW_DAY_MS;
}

/** True when the project has a running review timer. */
export function hasReviewTimer(window: ReviewWindow): boolean {
  return window.status === 'IN_REVIEW' && window.reviewPeriod > 0 && window.reviewStartedAt !== null;
}

/** When the window closes (the project is then approved); null without a timer. */
export function reviewClosesAt(window: ReviewWindow): Date | null {
  if (!hasReviewTimer(window)) return null;
  return new Date(instant(window.reviewStartedAt!) + reviewPeriodMs(window.reviewPeriod));
}

/** Whole review days elapsed since `reviewStartedAt` (rounded down; 0 before it or without one). */
export function reviewDaysElapsed(reviewStartedAt: Date | string | null, now: Date | number = Date.now()): number {
  if (reviewStartedAt === null) return 0;
  return Math.max(0, Math.floor((instant(now) - instant(reviewStartedAt)) / REVIEW_DAY_MS));
}

/**
 * Whole days left in the review window, counting a started day as a day (so "1 day left"
 * until the very end); 0 means no timer or a closed window (C§2). Always the period minus
 * the days elapsed, so saving the days shown keeps the period unchanged.
 */
export function reviewDaysLeft(window: ReviewWindow, now: Date | number = Date.now()): number {
  if (!hasReviewTimer(window)) return 0;
  return Math.max(0, window.reviewPeriod - reviewDaysElapsed(window.reviewStartedAt, now));
}

/** True when the window has closed: the moment the server's job approves the project. */
export function isReviewWindowClosed(window: ReviewWindow, now: Date | number = Date.now()): boolean {
  const closesAt = reviewClosesAt(window);
  return closesAt !== null && closesAt.getTime() <= instant(now);
}

/**
 * A§5: staff enter the days left; what is sent is 0 (no timer), or the days already elapsed
 * plus the days entered.
 */
export function reviewPeriodToSend(enteredDaysLeft: number, reviewStartedAt: Date | string | null, now: Date | number = Date.now()): number {
  if (enteredDaysLeft === 0 || reviewStartedAt === null) return enteredDaysLeft;
  return reviewDaysElapsed(reviewStartedAt, now) + enteredDaysLeft;
}

/** Why the server refuses `reviewPeriod` (the whole period, elapsed days included); undefined when allowed. */
export function reviewPeriodProblem(reviewPeriod: number): string | undefined {
  if (!Number.isInteger(reviewPeriod) || reviewPeriod < 0) return REVIEW_WINDOW_MESSAGES.notWholeDays;
  if (reviewPeriod > REVIEW_PERIOD_LIMIT_DAYS) return REVIEW_WINDOW_MESSAGES.tooLong;
  return undefined;
}

/** Staff's "days left" field (A§5): digits only, blank is 0, and the period it makes must be allowed. */
export function reviewDaysLeftRule(text: string, reviewStartedAt: Date | string | null, now: Date | number = Date.now()): string | undefined {
  const value = text.trim();
  if (!/^\d*$/.test(value)) return REVIEW_WINDOW_MESSAGES.digitsOnly;
  return reviewPeriodProblem(reviewPeriodToSend(Number(value || 0), reviewStartedAt, now));
}
