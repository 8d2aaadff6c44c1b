import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The credentials of guest review (issue 13), all HMACs under keys derived from the server's
 * secret, so every instance checks them and none is stored:
 * - the link token, `{id}.{signature of id and the row's salt}`: the URL the owner sends. The
 *   salt is random per link, so a link's id tells nothing of its token and the owner can copy
 *   the same URL again later;
 * - an access pass, `{id}.{expires}.{signature}`, handed to a guest who typed a protected link's
 *   password, so the password is checked once, not on every call;
 * - a guest media link, `g{id}.{expires}.{signature}` (server/media/media-links.ts reads it):
 *   `<video>` cannot send a header, so the URL carries it, re-checked against the link at every request.
 * A revoked or expired link stops all three at once: each request loads the link again.
 */

const HOUR_MS = 3_600_000;
/** How long a pass and a media link last before the page asks again (the link's own expiry still rules). */
export const GUEST_PASS_HOURS = 12;

type Purpose = 'link' | 'access' | 'media';

function keyOf(secret: string, purpose: Purpose): Buffer {
  return createHmac('sha256', secret).update(`cutdesk guest review ${purpose} v1`).digest();
}

function sign(secret: string, purpose: Purpose, body: string): string {
  return createHmac('sha256', keyOf(secret, purpose)).update(body).digest('base64url').slice(0, 32);
}

function same(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A new link's salt. */
export function newShareSalt(): string {
  return randomBytes(16).toString('base64url');
}

export function shareLinkToken(secret: string, id: number, salt: string): string {
  return `${id}.${sign(secret, 'link', `${id}.${salt}`)}`;
}

const LINK_TOKEN = /^(\d{1,10})\.([A-Za-z0-9_-]{32})$/;

/** The link id a token names (to load its salt), or null when it is not shaped like one of ours. */
export function shareLinkIdOf(token: string): number | null {
  const match = LINK_TOKEN.exec(token);
  return match ? Number(match[1]) : null;
}

/** Whether `token` is the link `id`'s (its salt loaded from the row). */
export function isShareLinkToken(secret: string, token: string, id: number, salt: string): boolean {
  return same(shareLinkToken(secret, id, salt), token);
}

function expiring(secret: string, purpose: 'access' | 'media', prefix: string, id: number, now: number): string {
  // Rounded to the hour, so the same link reloaded within it gets the same URLs (the player does not restart).
  const expires = Math.floor((Math.ceil(now / HOUR_MS) * HOUR_MS + GUEST_PASS_HOURS * HOUR_MS) / 1000).toString(36);
  const body = `${prefix}${id}.${expires}`;
  return `${body}.${sign(secret, purpose, body)}`;
}

function verifyExpiring(secret: string, purpose: 'access' | 'media', prefix: string, token: string, now: number): number | null {
  const match = new RegExp(`^${prefix}(\\d{1,10})\\.([0-9a-z]{1,10})\\.([A-Za-z0-9_-]{32})$`).exec(token);
  if (!match) return null;
  const [, id, expires, given] = match as unknown as [string, string, string, string];
  if (!same(sign(secret, purpose, `${prefix}${id}.${expires}`), given)) return null;
  return parseInt(expires, 36) * 1000 < now ? null : Number(id);
}

export const signSharePass = (secret: string, id: number, now = Date.now()) => expiring(secret, 'access', '', id, now);
/** The link id a pass was handed out for, or null (not ours, or expired). */
export const verifySharePass = (secret: string, pass: string, now = Date.now()) => verifyExpiring(secret, 'access', '', pass, now);

export const signGuestMediaToken = (secret: string, id: number, now = Date.now()) => expiring(secret, 'media', 'g', id, now);
/** The link id of a guest media token, or null (not a guest's, forged, or expired). */
export const verifyGuestMediaToken = (secret: string, token: string, now = Date.now()) => verifyExpiring(secret, 'media', 'g', token, now);
