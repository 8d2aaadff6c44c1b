import type { RoleName } from './roles.ts';
import { isStaffRole } from './roles.ts';

/**
 * The session something was handed out to (upload credentials, media links): the user's
 * session version then, and for an impersonation the admin and the admin's version then.
 * The same fields as the session token's claims, so the token's claims can be passed as is.
 */
export interface SessionClaims {
  sessionVersion: number;
  impersonatorId: number | null;
  impersonatorSessionVersion: number | null;
}

/** A user (or the impersonating admin) as they are now; null when gone (deleted). */
export type SessionHolder = { role: RoleName; isEnabled: boolean; sessionVersion: number } | null;

/**
 * Issue 9: what a session handed out lives no longer than the session. The session ended when
 * its user was disabled, deleted, or raised their session version (password change or reset,
 * disable): and, for an impersonation, when the admin is gone, disabled, no longer staff or
 * raised theirs. One rule for the token itself (server/plugins/auth.ts) and for what outlives
 * a request (upload credentials, media links).
 */
export function sessionStillStands(session: SessionClaims, user: SessionHolder, impersonator: SessionHolder): boolean {
  if (!user || !user.isEnabled || user.sessionVersion !== session.sessionVersion) return false;
  if (session.impersonatorId === null) return true;
  return !!impersonator && impersonator.isEnabled && isStaffRole(impersonator.role) && impersonator.sessionVersion === session.impersonatorSessionVersion;
}
