import type { FastifyRequest } from 'fastify';
import type { RoleName } from '../../src/domain/roles.ts';
import { sessionStillStands } from '../../src/domain/session-standing.ts';
import type { UserRow } from '../db/schema.ts';
import { forbidden, unauthorized } from '../http-error.ts';
import { usersRepo } from '../repositories/users.ts';
import type { TokenClaims } from '../services/tokens.ts';

export interface AuthContext {
  user: UserRow;
  /** The admin signed in as this user's organization, when impersonating. */
  impersonatorId: number | null;
}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return null;
  return header.slice('Bearer '.length).trim() || null;
}

/**
 * The signed-in user. The user row is read on every call, so a disabled or deleted user's
 * token stops working at once, and so does an impersonation whose admin lost access. A token
 * signed before the user's (or the impersonating admin's) last password change, reset,
 * disable or delete carries an older session version and is refused too.
 */
export async function authenticate(request: FastifyRequest): Promise<AuthContext> {
  return (await authenticateSession(request)).auth;
}

/** authenticate, plus the token's claims (the refresh keeps its sign-in time). */
export async function authenticateSession(request: FastifyRequest): Promise<{ auth: AuthContext; claims: TokenClaims }> {
  const token = bearer(request);
  if (!token) throw unauthorized();
  const { ctx } = request.server;
  const claims = await ctx.tokens.verify(token);
  if (!claims) throw unauthorized();
  const users = usersRepo(ctx.db);
  const user = await users.findById(claims.userId);
  const admin = claims.impersonatorId === null ? null : await users.findById(claims.impersonatorId);
  if (!user || !sessionStillStands(claims, user, admin ?? null)) throw unauthorized();
  return { auth: { user, impersonatorId: claims.impersonatorId }, claims };
}

/** Like authenticate, and the user's role must be one of `roles` (403 otherwise). */
export async function requireRole(request: FastifyRequest, roles: readonly RoleName[]): Promise<AuthContext> {
  const auth = await authenticate(request);
  if (!roles.includes(auth.user.role)) throw forbidden();
  return auth;
}
