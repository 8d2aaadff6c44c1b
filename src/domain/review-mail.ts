import { BUSINESS_TIME_ZONE } from './business-calendar.ts';
import { REVIEW_DAY_MS, reviewClosesAt, type ReviewWindow } from './review-window.ts';
import { isStaffRole, type RoleName } from './roles.ts';
import type { BusinessCalendar } from './holiday-calendar.ts';
import { isBusinessDayAt } from './sla-timer.ts';

/**
 * Issue 13, review e-mails: the kinds a user can switch on and off (Settings → Review e-mails,
 * and the unsubscribe link of each mail), and when the timed ones are due. One definition for
 * the Settings page, the API contract and the server's jobs.
 */
export const REVIEW_MAIL_KINDS = ['ready', 'reminder', 'changes', 'digest'] as const;
export type ReviewMailKind = (typeof REVIEW_MAIL_KINDS)[number];

export const REVIEW_MAIL_LABELS: Readonly<Record<ReviewMailKind, { title: string; description: string }>> = {
  ready: { title: 'Version ready for review', description: 'When a new version of a project is ready for you to review.' },
  reminder: { title: 'Review reminder', description: 'One day before a review window closes and the project is approved.' },
  changes: { title: 'Changes requested', description: 'When a customer asks for changes (editors and admins), with the open comments.' },
  digest: { title: 'Daily comment digest', description: 'Once a business day, the new comments on your projects.' },
};

/** The digest goes out from this hour (New York time) on business days (docs/decisions.md). */
export const DIGEST_LOCAL_HOUR = 8;

const hourFormatter = new Intl.DateTimeFormat('en-US', { timeZone: BUSINESS_TIME_ZONE, hour: 'numeric', hourCycle: 'h23' });

/** Whether the daily digest is due at `now`: a business day in New York (no weekend, no holiday of `calendar`), 08:00 or later. */
export function isDigestDue(now: Date, calendar: BusinessCalendar): boolean {
  if (!isBusinessDayAt(now, calendar)) return false;
  const hour = Number(hourFormatter.formatToParts(now).find((part) => part.type === 'hour')?.value ?? '0');
  return hour >= DIGEST_LOCAL_HOUR;
}

/** Whether the reminder is due: within the last review day before the window auto-completes. */
export function isReminderDue(window: ReviewWindow, now: Date): boolean {
  const closesAt = reviewClosesAt(window);
  if (!closesAt) return false;
  const left = closesAt.getTime() - now.getTime();
  return left > 0 && left <= REVIEW_DAY_MS;
}

/** The kinds a role can receive: "changes requested" goes to staff only (editor and admins). */
export function reviewMailKindsFor(role: RoleName): readonly ReviewMailKind[] {
  return isStaffRole(role) ? REVIEW_MAIL_KINDS : REVIEW_MAIL_KINDS.filter((kind) => kind !== 'changes');
}
