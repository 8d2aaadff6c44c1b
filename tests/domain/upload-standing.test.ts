import { describe, expect, it } from 'vitest';
import { sessionStillStands, type SessionClaims } from '../../src/domain/session-standing.ts';
import { credentialStillAllowed, type CredentialStanding } from '../../src/domain/upload-standing.ts';

/** Issue 9: what a session hands out (upload credentials, media links) ends with the session. */

const own: SessionClaims = { sessionVersion: 2, impersonatorId: null, impersonatorSessionVersion: null };
const impersonated: SessionClaims = { sessionVersion: 2, impersonatorId: 9, impersonatorSessionVersion: 5 };
const owner = { role: 'OWNER' as const, isEnabled: true, sessionVersion: 2 };
const admin = { role: 'ADMIN' as const, isEnabled: true, sessionVersion: 5 };

describe('sessionStillStands', () => {
  it("stands while the user's session version is the one it was issued with", () => {
    expect(sessionStillStands(own, owner, null)).toBe(true);
    expect(sessionStillStands(own, { ...owner, sessionVersion: 3 }, null)).toBe(false);
    expect(sessionStillStands(own, { ...owner, isEnabled: false }, null)).toBe(false);
    expect(sessionStillStands(own, null, null)).toBe(false);
  });

  it('an impersonation also needs its admin: present, enabled, staff, of the same session version', () => {
    expect(sessionStillStands(impersonated, owner, admin)).toBe(true);
    expect(sessionStillStands(impersonated, owner, { ...admin, role: 'EDITOR' })).toBe(true);
    expect(sessionStillStands(impersonated, owner, null)).toBe(false);
    expect(sessionStillStands(impersonated, owner, { ...admin, isEnabled: false })).toBe(false);
    expect(sessionStillStands(impersonated, owner, { ...admin, role: 'USER' })).toBe(false);
    expect(sessionStillStands(impersonated, owner, { ...admin, sessionVersion: 6 })).toBe(false);
    expect(sessionStillStands(impersonated, { ...owner, sessionVersion: 3 }, admin)).toBe(false);
  });
});

describe('credentialStillAllowed', () => {
  const standing: CredentialStanding = {
    projectId: 4,
    allowedPrefix: 'projects/4/raw/',
    session: own,
    user: { ...owner, organizationId: 1 },
    impersonator: null,
    project: { status: 'OPENED', organizationId: 1 },
  };

  it('ends with the session that asked for it', () => {
    expect(credentialStillAllowed(standing)).toBe(true);
    expect(credentialStillAllowed({ ...standing, user: { ...standing.user!, sessionVersion: 3 } })).toBe(false);
    expect(credentialStillAllowed({ ...standing, session: impersonated, impersonator: admin })).toBe(true);
    expect(credentialStillAllowed({ ...standing, session: impersonated, impersonator: { ...admin, isEnabled: false } })).toBe(false);
    expect(credentialStillAllowed({ ...standing, session: impersonated, impersonator: null })).toBe(false);
  });

  it('and still with its project and organization', () => {
    expect(credentialStillAllowed({ ...standing, project: { status: 'WAITING_FOR_EDITOR', organizationId: 1 } })).toBe(false);
    expect(credentialStillAllowed({ ...standing, project: { status: 'OPENED', organizationId: 2 } })).toBe(false);
    expect(credentialStillAllowed({ ...standing, project: null })).toBe(false);
  });
});
