import { REVIEW_MAIL_KINDS, REVIEW_MAIL_LABELS } from '../../src/domain/review-mail.ts';
import type { Db } from '../db/connect.ts';
import { notFound } from '../http-error.ts';
import { reviewMailRepo, type ReviewMailPreferences } from '../repositories/review-mail.ts';
import { readUnsubscribeToken } from './review-mail-tokens.ts';

export async function reviewMailPreferences(db: Db, userId: number): Promise<ReviewMailPreferences> {
  const preferences = await reviewMailRepo(db).preferences(userId);
  if (!preferences) throw notFound();
  return preferences;
}

export async function updateReviewMailPreferences(db: Db, userId: number, changes: Partial<ReviewMailPreferences>): Promise<ReviewMailPreferences> {
  await reviewMailRepo(db).setPreferences(userId, changes);
  return reviewMailPreferences(db, userId);
}

/**
 * The unsubscribe link: turns its kind (or every review mail) off for its user, no session
 * needed. A forged or malformed token, or a deleted user, is 404. Returns what was turned off.
 */
export async function unsubscribe(db: Db, secret: string, token: string): Promise<string> {
  const read = readUnsubscribeToken(secret, token);
  if (!read || !(await reviewMailRepo(db).preferences(read.userId))) throw notFound('This unsubscribe link is not valid.');
  const kinds = read.scope === 'all' ? REVIEW_MAIL_KINDS : [read.scope];
  await reviewMailRepo(db).setPreferences(read.userId, Object.fromEntries(kinds.map((kind) => [kind, false])));
  return read.scope === 'all' ? 'all review e-mails' : `“${REVIEW_MAIL_LABELS[read.scope].title}” e-mails`;
}
