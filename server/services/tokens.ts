import { createHash, type webcrypto } from 'node:crypto';
import { TOKEN_LIFETIME_DAYS } from '../../src/domain/constants.ts';

/**
 * A session ends this long after its sign-in whatever the refreshes (issue 9): a stolen token
 * cannot be kept alive forever by refreshing it. The person signs in again.
 */
export const SESSION_MAX_DAYS = 30;
const DAY_SECONDS = 86_400;

export interface TokenClaims {
  userId: number;
  /** The admin who is signed in as this user's organization. */
  impersonatorId: number | null;
  /**
   * The user's session version when the session began: bumping the version on the user row
   * (password change, reset, disable, delete) ends every token signed before.
   */
  sessionVersion: number;
  /** The impersonating admin's session version, so the admin's revocation ends it too. */
  impersonatorSessionVersion: number | null;
  /** The impersonation session (its `impersonations` row) this token belongs to; a row id, nothing secret. */
  impersonationId: number | null;
  /** When the person signed in (seconds since the epoch); kept through refreshes. */
  signedInAt: number;
}

/** What a new token carries; `signedInAt` is now for a new session, the old value for a refresh. */
export type NewTokenClaims = Omit<TokenClaims, 'signedInAt' | 'impersonatorSessionVersion' | 'impersonationId'> & {
  impersonatorSessionVersion?: number | null;
  impersonationId?: number | null;
  signedInAt?: number;
};

export interface TokenService {
  sign(claims: NewTokenClaims): Promise<string>;
  /** Null for a bad signature, an expired token, a session past its absolute lifetime or a malformed one. */
  verify(token: string): Promise<TokenClaims | null>;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Tokens whose signature was checked lately, per service (issue 34): checking an HS256 signature
 * through WebCrypto cost a third of the CPU of a staff board request answered from memory, and
 * the same token comes back with every request of its session. Kept by the token's SHA-256 (no
 * token is kept in clear), with its expiry; the times are checked again on every use, and what a
 * token may do is decided by its user's row as before. The oldest goes first past the limit.
 */
const MOST_CHECKED_TOKENS = 10_000;
interface Checked {
  claims: Readonly<TokenClaims>;
  expires: number;
}

let joseLoading: Promise<typeof import('jose')> | undefined;
/** jose (≈ 45 modules) loads with the first token signed or checked, not at start (issue 14). */
export const jose = () => (joseLoading ??= import('jose'));

/**
 * HS256 session tokens. `lifetimeSeconds` is one token's life (refreshed by the client);
 * `maxSessionSeconds` the absolute life of the session the token belongs to.
 */
export function createTokenService(
  secret: string,
  lifetimeSeconds = TOKEN_LIFETIME_DAYS * DAY_SECONDS,
  maxSessionSeconds = SESSION_MAX_DAYS * DAY_SECONDS,
): TokenService {
  // Imported once as a CryptoKey (issue 14): given the raw bytes, jose imports them again on
  // every sign and verify, about a quarter of a session check's CPU. Made on first use.
  let imported: Promise<webcrypto.CryptoKey> | undefined;
  const checked = new Map<string, Checked>();
  const key = () =>
    (imported ??= crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']));
  return {
    async sign({ userId, impersonatorId, sessionVersion, impersonatorSessionVersion = null, impersonationId = null, signedInAt = nowSeconds() }) {
      const payload: Record<string, number> = { sv: sessionVersion, sat: signedInAt };
      if (impersonatorId) {
        payload.imp = impersonatorId;
        payload.isv = impersonatorSessionVersion ?? 0;
        if (impersonationId) payload.ims = impersonationId;
      }
      // A refresh never reaches past the session's end.
      const expires = Math.min(nowSeconds() + lifetimeSeconds, signedInAt + maxSessionSeconds);
      const { SignJWT } = await jose();
      return new SignJWT(payload)
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(userId))
        .setIssuedAt()
        .setExpirationTime(expires)
        .sign(await key());
    },
    async verify(token) {
      const digest = createHash('sha256').update(token).digest('base64');
      const seen = checked.get(digest);
      if (seen) return seen.expires > nowSeconds() && seen.claims.signedInAt + maxSessionSeconds > nowSeconds() ? seen.claims : null;
      const claims = await check(token);
      if (claims) {
        checked.set(digest, claims);
        if (checked.size > MOST_CHECKED_TOKENS) checked.delete(checked.keys().next().value!);
      }
      return claims?.claims ?? null;
    },
  };

  /** The token's claims and expiry when its signature and times are good (jose), else null. */
  async function check(token: string): Promise<Checked | null> {
    try {
      const { jwtVerify } = await jose();
      const { payload } = await jwtVerify(token, await key(), { algorithms: ['HS256'] });
      const userId = Number(payload.sub);
      if (!Number.isSafeInteger(userId)) return null;
      // Tokens signed before session versions existed carry neither claim: every user
      // started at version 0, and their session counts from the token's issue time.
      const signedInAt = typeof payload.sat === 'number' ? payload.sat : typeof payload.iat === 'number' ? payload.iat : 0;
      if (signedInAt + maxSessionSeconds <= nowSeconds()) return null;
      const impersonatorId = typeof payload.imp === 'number' ? payload.imp : null;
      const claims = Object.freeze({
        userId,
        impersonatorId,
        sessionVersion: typeof payload.sv === 'number' ? payload.sv : 0,
        impersonatorSessionVersion: impersonatorId === null ? null : typeof payload.isv === 'number' ? payload.isv : 0,
        impersonationId: impersonatorId !== null && typeof payload.ims === 'number' ? payload.ims : null,
        signedInAt,
      });
      // jose checked `exp` when there is one; our tokens always carry one.
      return { claims, expires: typeof payload.exp === 'number' ? payload.exp : Infinity };
    } catch {
      return null;
    }
  }
}

/** When a token signed by this service expires (its `exp`), read without checking it: for tokens just signed. */
export function tokenExpiry(token: string): Date {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
  if (typeof payload.exp !== 'number') throw new Error('A token without an expiry');
  return new Date(payload.exp * 1000);
}
