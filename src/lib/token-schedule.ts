/**
 * When to refresh the session token. The token's claims are read without verifying them: they
 * only decide *when* to ask the server for a new token, never who the user is or what they may do.
 */

/** Refresh once this share of the token's life has passed. */
const REFRESH_AT_SHARE = 0.8;
/** Never wait less than this between refreshes (a token close to its session's end). */
export const MIN_REFRESH_DELAY_MS = 30_000;
/** setTimeout's largest delay (about 24.8 days); a longer wait is re-planned when it fires. */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

export interface TokenTimes {
  /** `iat` in ms since the epoch. */
  issuedAtMs: number;
  /** `exp` in ms since the epoch. */
  expiresAtMs: number;
}

function payloadOf(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const json: unknown = JSON.parse(atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=')));
    return json && typeof json === 'object' ? (json as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The user a token was issued to (`sub`), unverified: it only decides whose offline copy an
 * answer may be kept as (api-client), never who the user is or what they may do.
 */
export function tokenUserId(token: string): number | null {
  const sub = Number(payloadOf(token)?.sub);
  return Number.isSafeInteger(sub) && sub > 0 ? sub : null;
}

/** `iat` and `exp` of a JWT, unverified; null when either is missing or they make no sense. */
export function tokenTimes(token: string): TokenTimes | null {
  const payload = payloadOf(token);
  if (!payload || typeof payload.exp !== 'number' || !Number.isFinite(payload.exp)) return null;
  const expiresAtMs = payload.exp * 1000;
  // Without `iat` the life is unknown: no schedule (the start-up rule of C§4 still applies).
  const issuedAtMs = typeof payload.iat === 'number' && Number.isFinite(payload.iat) ? payload.iat * 1000 : null;
  if (issuedAtMs === null || issuedAtMs >= expiresAtMs) return null;
  return { issuedAtMs, expiresAtMs };
}

/** The moment (ms since the epoch) the token should be refreshed: at 80 % of its life. */
export function refreshDueAt(times: TokenTimes): number {
  return times.issuedAtMs + Math.floor((times.expiresAtMs - times.issuedAtMs) * REFRESH_AT_SHARE);
}

/**
 * How long to wait before refreshing `token`, or null when there is nothing to plan (unreadable
 * or already expired: the next call's 401 ends the session). 0 means now.
 */
export function refreshDelayMs(token: string, nowMs: number): number | null {
  const times = tokenTimes(token);
  if (!times || times.expiresAtMs <= nowMs) return null;
  const wait = refreshDueAt(times) - nowMs;
  return wait <= 0 ? 0 : Math.min(Math.max(wait, MIN_REFRESH_DELAY_MS), MAX_TIMER_DELAY_MS);
}

/** Whether the refresh of `token` is due at `nowMs` (e.g. when a sleeping tab wakes up). */
export function refreshIsDue(token: string, nowMs: number): boolean {
  return refreshDelayMs(token, nowMs) === 0;
}

/**
 * Whether a refresh gained anything: the server never signs past the session's absolute end,
 * so a refreshed token that expires no later than the old one means the session is at its cap
 * and refreshing again would only loop.
 */
export function refreshExtends(previous: string, fresh: string): boolean {
  const before = tokenTimes(previous);
  const after = tokenTimes(fresh);
  if (!after) return false;
  return !before || after.expiresAtMs > before.expiresAtMs;
}
