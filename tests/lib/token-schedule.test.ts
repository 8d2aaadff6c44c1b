import { describe, expect, it } from 'vitest';
import {
  MAX_TIMER_DELAY_MS,
  MIN_REFRESH_DELAY_MS,
  refreshDelayMs,
  refreshDueAt,
  refreshExtends,
  refreshIsDue,
  tokenTimes,
  tokenUserId,
} from '../../src/lib/token-schedule.ts';

const DAY = 86_400_000;
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** An unsigned JWT-shaped token: the schedule reads claims, it never verifies them. */
const jwt = (claims: Record<string, unknown>) => `${b64url({ alg: 'HS256' })}.${b64url(claims)}.signature`;
const seconds = (ms: number) => Math.floor(ms / 1000);

describe('token refresh schedule', () => {
  const issued = Date.UTC(2026, 10, 20, 9, 0, 0);
  const token = jwt({ sub: '7', iat: seconds(issued), exp: seconds(issued + 7 * DAY) });

  it('reads iat and exp without verifying', () => {
    expect(tokenTimes(token)).toEqual({ issuedAtMs: issued, expiresAtMs: issued + 7 * DAY });
  });

  it('refreshes at 80 % of the token life', () => {
    expect(refreshDueAt(tokenTimes(token)!)).toBe(issued + Math.floor(7 * DAY * 0.8));
    expect(refreshDelayMs(token, issued)).toBe(Math.floor(7 * DAY * 0.8));
    expect(refreshDelayMs(token, issued + 5 * DAY)).toBe(Math.floor(7 * DAY * 0.8) - 5 * DAY);
    expect(refreshIsDue(token, issued + 5 * DAY)).toBe(false);
  });

  it('is due at once past the 80 % point (a tab waking up) until it expires', () => {
    expect(refreshDelayMs(token, issued + 6 * DAY)).toBe(0);
    expect(refreshIsDue(token, issued + 6 * DAY)).toBe(true);
    expect(refreshDelayMs(token, issued + 7 * DAY)).toBeNull();
    expect(refreshIsDue(token, issued + 8 * DAY)).toBe(false);
  });

  it('never plans shorter than the minimum, nor longer than a timer can wait', () => {
    const short = jwt({ iat: seconds(issued), exp: seconds(issued + 20_000) });
    expect(refreshDelayMs(short, issued)).toBe(MIN_REFRESH_DELAY_MS);
    const long = jwt({ iat: seconds(issued), exp: seconds(issued + 90 * DAY) });
    expect(refreshDelayMs(long, issued)).toBe(MAX_TIMER_DELAY_MS);
  });

  it('plans nothing for an unreadable token or one without iat/exp', () => {
    expect(refreshDelayMs('not-a-token', issued)).toBeNull();
    expect(refreshDelayMs(jwt({ exp: seconds(issued + DAY) }), issued)).toBeNull();
    expect(refreshDelayMs(jwt({ iat: seconds(issued) }), issued)).toBeNull();
    expect(refreshDelayMs(`a.${Buffer.from('{oops').toString('base64url')}.c`, issued)).toBeNull();
    expect(tokenTimes(jwt({ iat: seconds(issued), exp: seconds(issued) }))).toBeNull();
  });

  it('stops when a refresh no longer extends the session (its absolute end)', () => {
    const later = jwt({ iat: seconds(issued + 6 * DAY), exp: seconds(issued + 13 * DAY) });
    const capped = jwt({ iat: seconds(issued + 6 * DAY), exp: seconds(issued + 7 * DAY) });
    expect(refreshExtends(token, later)).toBe(true);
    expect(refreshExtends(token, capped)).toBe(false);
    expect(refreshExtends(token, 'garbage')).toBe(false);
  });

  it('names the user a token was issued to, for keeping offline copies apart, and nothing for a malformed one', () => {
    expect(tokenUserId(jwt({ sub: '7', iat: 1, exp: 2 }))).toBe(7);
    for (const bad of [jwt({ sub: 'x' }), jwt({ sub: '0' }), jwt({ sub: '-3' }), jwt({}), 'not-a-token', '']) expect(tokenUserId(bad), bad).toBeNull();
  });
});
