import { createHmac } from 'node:crypto';
import { EVENT_TICKET_SECONDS } from '../../src/domain/contract/events.ts';
import { sessionStillStands, type SessionClaims } from '../../src/domain/session-standing.ts';
import type { AppContext } from '../context.ts';
import { unauthorized } from '../http-error.ts';
import type { AuthContext } from '../plugins/auth.ts';
import { usersRepo } from '../repositories/users.ts';
import { jose } from '../services/tokens.ts';

/**
 * Tickets that open an event stream (EventSource sends no Authorization header, and a session
 * token in a URL would end up in logs and histories). A ticket names one stream (`project:12` or
 * `dashboard`), the user and the session it was handed to, and lives 60 s. It is signed with a
 * key derived from the app secret for this purpose only, so it is never accepted as a session
 * token (nor a session token as a ticket), and carries its own audience besides.
 */
const AUDIENCE = 'cutdesk-events';
const PURPOSE = 'cutdesk event-stream ticket';

export type StreamScope = `project:${number}` | 'dashboard';

export const projectScope = (projectId: number): StreamScope => `project:${projectId}`;

const keys = new Map<string, Uint8Array>();
function ticketKey(secret: string): Uint8Array {
  let key = keys.get(secret);
  if (!key) {
    key = new Uint8Array(createHmac('sha256', secret).update(PURPOSE).digest());
    keys.set(secret, key);
  }
  return key;
}

/** A ticket for `scope`, handed to the caller of a signed-in request with these session claims. */
export async function signTicket(secret: string, userId: number, session: SessionClaims, scope: StreamScope): Promise<string> {
  const payload: Record<string, string | number> = { scope, sv: session.sessionVersion };
  if (session.impersonatorId !== null) {
    payload.imp = session.impersonatorId;
    payload.isv = session.impersonatorSessionVersion ?? 0;
  }
  const { SignJWT } = await jose();
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(userId))
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${EVENT_TICKET_SECONDS}s`)
    .sign(ticketKey(secret));
}

async function verifyTicket(secret: string, ticket: string, scope: StreamScope): Promise<TicketClaims | null> {
  try {
    const { jwtVerify } = await jose();
    const { payload } = await jwtVerify(ticket, ticketKey(secret), { algorithms: ['HS256'], audience: AUDIENCE, requiredClaims: ['exp'] });
    const userId = Number(payload.sub);
    if (!Number.isSafeInteger(userId) || payload.scope !== scope || typeof payload.sv !== 'number') return null;
    const impersonatorId = typeof payload.imp === 'number' ? payload.imp : null;
    return {
      userId,
      sessionVersion: payload.sv,
      impersonatorId,
      impersonatorSessionVersion: impersonatorId === null ? null : typeof payload.isv === 'number' ? payload.isv : 0,
    };
  } catch {
    return null;
  }
}

/** Who a ticket was handed to: the user and the session (with any impersonation) it names. */
type TicketClaims = SessionClaims & { userId: number };

/**
 * The caller a ticket speaks for, as the auth plugin would see them now: 401 for a missing, bad,
 * expired or other stream's ticket, and for a session that ended since (password change,
 * disabled, deleted, an impersonating admin who lost access). With the ticket's claims, so the
 * stream can check the same session again later (`sessionCaller`).
 */
export async function ticketCaller(ctx: AppContext, ticket: string | undefined, scope: StreamScope): Promise<{ auth: AuthContext; claims: TicketClaims }> {
  if (!ticket) throw unauthorized();
  const claims = await verifyTicket(ctx.config.jwtSecret, ticket, scope);
  if (!claims) throw unauthorized();
  return { auth: await sessionCaller(ctx, claims), claims };
}

/** The caller of a session named by a ticket's claims, now; 401 when that session ended. */
export async function sessionCaller(ctx: AppContext, claims: TicketClaims): Promise<AuthContext> {
  const users = usersRepo(ctx.db);
  const user = await users.findById(claims.userId);
  const admin = claims.impersonatorId === null ? null : await users.findById(claims.impersonatorId);
  if (!user || !sessionStillStands(claims, user, admin ?? null)) throw unauthorized();
  return { user, impersonatorId: claims.impersonatorId };
}
