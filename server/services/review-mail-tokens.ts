import { createHmac, timingSafeEqual } from 'node:crypto';
import { REVIEW_MAIL_KINDS, type ReviewMailKind } from '../../src/domain/review-mail.ts';

/** What an unsubscribe link turns off: one kind of review mail, or all of them. */
export type UnsubscribeScope = ReviewMailKind | 'all';

const sign = (secret: string, payload: string) => createHmac('sha256', `review-mail-unsubscribe:${secret}`).update(payload).digest('base64url');

/**
 * The token of an unsubscribe link: `<userId>.<kind>.<HMAC>`. Signed, not stored — nothing to
 * leak from the database, and a link keeps working without a session (docs/decisions.md).
 */
export function unsubscribeToken(secret: string, userId: number, scope: UnsubscribeScope): string {
  const payload = `${userId}.${scope}`;
  return `${payload}.${sign(secret, payload)}`;
}

/** The user and scope of a genuine token; null for a forged or malformed one. */
export function readUnsubscribeToken(secret: string, token: string): { userId: number; scope: UnsubscribeScope } | null {
  const match = /^(\d{1,10})\.([a-z]+)\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const [, id, scope, signature] = match;
  if (scope !== 'all' && !REVIEW_MAIL_KINDS.includes(scope as ReviewMailKind)) return null;
  const expected = Buffer.from(sign(secret, `${id}.${scope}`));
  if (!timingSafeEqual(expected, Buffer.from(signature!))) return null;
  return { userId: Number(id), scope: scope as UnsubscribeScope };
}
