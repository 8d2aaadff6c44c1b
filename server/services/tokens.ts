import { SignJWT, jwtVerify } from 'jose';
import { TOKEN_LIFETIME_DAYS } from '../../src/domain/constants.ts';

export interface TokenClaims {
  userId: number;
  /** The admin who is signed in as this user's organization. */
  impersonatorId: number | null;
}

export interface TokenService {
  sign(claims: TokenClaims): Promise<string>;
  /** Null for a bad signature, an expired token or a malformed one. */
  verify(token: string): Promise<TokenClaims | null>;
}

export function createTokenService(secret: string, lifetimeSeconds = TOKEN_LIFETIME_DAYS * 86_400): TokenService {
  const key = new TextEncoder().encode(secret);
  return {
    async sign({ userId, impersonatorId }) {
      const jwt = new SignJWT(impersonatorId ? { imp: impersonatorId } : {})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(userId))
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + lifetimeSeconds);
      return jwt.sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        const userId = Number(payload.sub);
        if (!Number.isSafeInteger(userId)) return null;
        return { userId, impersonatorId: typeof payload.imp === 'number' ? payload.imp : null };
      } catch {
        return null;
      }
    },
  };
}
