import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Access } from '../../src/domain/contract/define.ts';
import fp from 'fastify-plugin';
import { isCustomerRole, isManagerRole, isStaffRole } from '../../src/domain/roles.ts';
import { seesOrganization } from '../../src/domain/organization-rules.ts';
import { sessionStillStands } from '../../src/domain/session-standing.ts';
import type { UserRow } from '../db/schema.ts';
import { forbidden, notFound, unauthorized } from '../http-error.ts';
import { usersRepo } from '../repositories/users.ts';
import type { TokenClaims } from '../services/tokens.ts';
import type { AppContext } from '../context.ts';
import type { RememberedRows } from '../services/remembered-rows.ts';
import { idParam } from '../routes/params.ts';

export interface AuthContext {
  /** Shared with other requests (kept in memory): never changed. */
  user: Readonly<UserRow>;
  /** The admin signed in as this user's organization, when impersonating. */
  impersonatorId: number | null;
}

/**
 * Who may call a route: declared by its operation (src/domain/contract/define.ts, where each level
 * is explained) or on the route (`{ config: { access: 'managers' } }`), and checked by this plugin
 * before the body is even parsed. Routes without a declaration need a session: a route is public
 * only when it says so.
 */
export type { Access };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * The route acts on the organization named by this path parameter: a customer of another
     * organization gets 404 (it does not exist for them) before any role check; staff see all.
     */
    organizationParam?: 'id';
  }
  interface FastifyRequest {
    /** The caller; reading it on a public route is a programming error (answered 401). */
    readonly auth: AuthContext;
    /** The session's token claims (the refresh and upload credentials keep its sign-in time). */
    readonly session: TokenClaims;
    signedIn: { auth: AuthContext; claims: TokenClaims } | null;
  }
}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return null;
  return header.slice('Bearer '.length).trim() || null;
}

/**
 * The signed-in user. The user row is read on every call (from memory while the database says it
 * is unchanged: server/services/remembered-rows.ts), so a disabled or deleted user's token stops
 * working at once, and so does an impersonation whose admin lost access. A token
 * signed before the user's (or the impersonating admin's) last password change, reset,
 * disable or delete carries an older session version and is refused too.
 */
async function authenticate(ctx: AppContext, remembered: RememberedRows, request: FastifyRequest): Promise<{ auth: AuthContext; claims: TokenClaims }> {
  const token = bearer(request);
  if (!token) throw unauthorized();
  const claims = await ctx.tokens.verify(token);
  if (!claims) throw unauthorized();
  const users = usersRepo(ctx.db);
  const userRow = (id: number) => remembered.user(id, () => users.findById(id));
  const user = await userRow(claims.userId);
  const admin = claims.impersonatorId === null ? null : await userRow(claims.impersonatorId);
  if (!user || !sessionStillStands(claims, user, admin ?? null)) throw unauthorized();
  return { auth: { user, impersonatorId: claims.impersonatorId }, claims };
}

/** Whether `auth` has the access a route declares (its organization already checked). */
export function hasAccess(access: Exclude<Access, 'public'>, auth: AuthContext): boolean {
  const { role, organizationId } = auth.user;
  const impersonating = auth.impersonatorId !== null;
  switch (access) {
    case 'signed-in':
      return true;
    case 'customer':
      return isCustomerRole(role) && organizationId !== null;
    case 'owner':
      return role === 'OWNER' && organizationId !== null && !impersonating;
    case 'staff':
      return isStaffRole(role) && !impersonating;
    case 'managers':
      return isManagerRole(role) && !impersonating;
    case 'superadmins':
      return role === 'SUPERADMIN' && !impersonating;
  }
}

/** Staff read any organization; a customer only its own (another one does not exist: 404). */
export function assertOrganizationVisible(auth: AuthContext, organizationId: number): void {
  if (!seesOrganization(auth.user, organizationId)) throw notFound();
}

/**
 * Issue 36: what an authenticated answer says (a user, an organization, the board) is for the
 * caller only and never kept by the browser's HTTP cache or a proxy: `no-store` on every answer
 * of a route that needs a session, and of a public route that a link's token opens (a share
 * link's guest reads: the token is the caller's key). Nothing answers 304 today (no ETag, the
 * board's prepared answer included), so no answer needs `private, no-cache`; the PWA's offline
 * copy is its own IndexedDB store (src/lib/offline-cache.ts), never the HTTP cache. Public
 * answers (health, client-config, payment plans, openapi.json) keep their own.
 */
const PRIVATE_ANSWER = 'no-store';
/** A public route opened by a link's token (`/share/:token/…`, `/media/:token/…`). */
const LINK_ROUTE = /\/:token(?:\/|$)/;

/**
 * Authentication and role checks for every API route (fastify/demo's way: declared per route,
 * enforced in one place). Order of refusals: 401 without a valid session, 404 for a malformed
 * organization id or another organization, 403 for a role that may not.
 */
export const authPlugin = fp(
  async function authPlugin(app: FastifyInstance) {
    app.decorateRequest('signedIn', null);
    app.decorateRequest('auth', {
      getter(this: FastifyRequest) {
        if (!this.signedIn) throw unauthorized();
        return this.signedIn.auth;
      },
    });
    app.decorateRequest('session', {
      getter(this: FastifyRequest) {
        if (!this.signedIn) throw unauthorized();
        return this.signedIn.claims;
      },
    });
    app.addHook('onRequest', async (request, reply) => {
      // An unknown path is answered 404 by the not-found handler, with or without a token.
      if (request.is404) return;
      const { access = 'signed-in', organizationParam } = request.routeOptions.config;
      if (access === 'public') {
        if (LINK_ROUTE.test(request.routeOptions.url ?? '')) reply.header('cache-control', PRIVATE_ANSWER);
        return;
      }
      // Set before the checks, so a refusal carries it too; a route may set its own (it replaces this).
      reply.header('cache-control', PRIVATE_ANSWER);
      const signedIn = await authenticate(app.ctx, app.remembered, request);
      if (organizationParam) assertOrganizationVisible(signedIn.auth, idParam(request.params, organizationParam));
      if (!hasAccess(access, signedIn.auth)) throw forbidden();
      request.signedIn = signedIn;
    });
  },
  { name: 'cutdesk-auth' },
);
