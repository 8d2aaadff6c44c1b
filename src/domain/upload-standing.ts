import type { ProjectStatus } from './project-status.ts';
import type { RoleName } from './roles.ts';
import { isCustomerRole } from './roles.ts';
import { sessionStillStands, type SessionClaims, type SessionHolder } from './session-standing.ts';
import { uploadDecision, uploadPrefix } from './uploads.ts';

/** What an issued upload credential depends on, as it stands now. */
export interface CredentialStanding {
  projectId: number;
  /** The credential's prefix: `projects/{id}/raw/` or `projects/{id}/final/`. */
  allowedPrefix: string;
  /** The session that asked for the credential (stored with it). */
  session: SessionClaims;
  /** Null when the user is gone (deleted). */
  user: { role: RoleName; isEnabled: boolean; organizationId: number | null; sessionVersion: number } | null;
  /** The admin of `session.impersonatorId` now; null when there is none or they are gone. */
  impersonator: SessionHolder;
  /** Null when the project or its organization is gone (deleted). */
  project: { status: ProjectStatus; organizationId: number } | null;
}

/**
 * Issue 9: an upload credential is worth only as much as the reason it was issued for. It
 * stops working once the session that asked for it ended (sessionStillStands: password reset,
 * disable, delete, the impersonating admin's revocation), its user leaves the project's
 * organization, or the project leaves the status that allowed the upload (a customer's raw
 * files: OPENED) — the same rule that issued it (uploadDecision), asked again.
 */
export function credentialStillAllowed({ projectId, allowedPrefix, session, user, impersonator, project }: CredentialStanding): boolean {
  if (!user || !sessionStillStands(session, user, impersonator) || !project) return false;
  const uploadType =
    allowedPrefix === uploadPrefix(projectId, 'deliverable') ? 'deliverable' : allowedPrefix === uploadPrefix(projectId, 'asset') ? 'asset' : null;
  if (!uploadType) return false;
  if (isCustomerRole(user.role) && user.organizationId !== project.organizationId) return false;
  return uploadDecision(user.role, project.status, uploadType).allowed;
}
