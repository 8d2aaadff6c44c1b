import { TOKEN_REFRESH_DAYS } from './constants.ts';

const DAY_MS = 86_400_000;

/** Whole days left before `expiresAt` (ms since epoch), rounded up as C§4 asks. */
export function daysUntilExpiry(expiresAtMs: number, nowMs: number): number {
  return Math.ceil((expiresAtMs - nowMs) / DAY_MS);
}

/** C§4: refresh when 2 days or fewer remain and the token has not yet expired. */
export function shouldRefreshToken(expiresAtMs: number, nowMs: number): boolean {
  if (expiresAtMs <= nowMs) return false;
  return daysUntilExpiry(expiresAtMs, nowMs) <= TOKEN_REFRESH_DAYS;
}

/** Reads the `exp` claim (seconds) of a JWT without verifying it; null when unreadable. */
export function tokenExpiryMs(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const json = JSON.parse(atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='))) as { exp?: unknown };
    return typeof json.exp === 'number' ? json.exp * 1000 : null;
  } catch {
    return null;
  }
}
