import { MeStruct, type Me } from '@/domain/contract/me.ts';
import { AdminLoginStruct } from '@/domain/contract/customers.ts';
import { OrganizationStruct } from '@/domain/contract/organizations.ts';
import { SessionStruct, TokenStruct, type Session } from '@/domain/contract/auth.ts';
import { homeFor } from '@/domain/route-guard.ts';
import { shouldRefreshToken, tokenExpiryMs } from '@/domain/session.ts';
import { api } from './api-client.ts';
import { adminTokenAtom, appStore, clearSession, meAtom, orgIdAtom, tokenAtom, topBarInfoAtom } from './session-state.ts';

export async function loadMe(): Promise<Me> {
  const me = await api('GET', '/me', { struct: MeStruct });
  appStore.set(meAtom, me);
  appStore.set(orgIdAtom, me.organizationId);
  return me;
}

/** Stores a fresh session (login, registration, recovery) and loads who it belongs to. */
export async function startSession(session: Session): Promise<Me> {
  appStore.set(tokenAtom, session.token);
  appStore.set(orgIdAtom, session.organizationId);
  return loadMe();
}

/** C§4: refresh when 2 days or fewer remain and the token has not expired. */
export async function refreshTokenIfNeeded(now = Date.now()): Promise<void> {
  const token = appStore.get(tokenAtom);
  const expiry = token ? tokenExpiryMs(token) : null;
  if (expiry === null || !shouldRefreshToken(expiry, now)) return;
  const { token: fresh } = await api('PUT', '/me/refresh-token', { struct: TokenStruct });
  appStore.set(tokenAtom, fresh);
}

/**
 * Startup of C§4: the stored items are already in the atoms; load the user when a token is
 * present (except on a change-password link with an e-mail), drop the token when that fails.
 */
export async function restoreSession(location: Location): Promise<void> {
  const token = appStore.get(tokenAtom);
  if (!token) return;
  const onChangePasswordLink = location.pathname === '/change-password' && new URLSearchParams(location.search).has('email');
  if (onChangePasswordLink) return;
  try {
    await loadMe();
    await refreshTokenIfNeeded();
  } catch {
    appStore.set(tokenAtom, null);
    appStore.set(meAtom, null);
  }
}

export function landingFor(me: Me | null): string {
  return homeFor(me?.role.name ?? null);
}

export function logout(): void {
  clearSession();
}

/**
 * A§2 Log In As: the admin's own token is kept aside (adminToken) and the session switches to
 * the organization owner's token, whose claims name the admin. On failure the admin session
 * stays as it was.
 */
export async function startImpersonation(organizationId: number): Promise<Me> {
  const adminToken = appStore.get(tokenAtom);
  const session = await api('GET', `/organizations/${organizationId}/admin/login`, { struct: AdminLoginStruct });
  appStore.set(topBarInfoAtom, null);
  appStore.set(adminTokenAtom, adminToken);
  try {
    return await startSession(session);
  } catch (error) {
    appStore.set(adminTokenAtom, null);
    appStore.set(tokenAtom, adminToken);
    await loadMe().catch(() => undefined);
    throw error;
  }
}

/** Admin logout: back to the admin's own session, kept aside when impersonation began. */
export async function endImpersonation(): Promise<Me | null> {
  const adminToken = appStore.get(adminTokenAtom);
  appStore.set(adminTokenAtom, null);
  appStore.set(topBarInfoAtom, null);
  if (!adminToken) {
    clearSession();
    return null;
  }
  appStore.set(tokenAtom, adminToken);
  return loadMe();
}

/** Figures of the customer top bar: who, which organization, storage and credits. */
export async function loadTopBarInfo(me: Me): Promise<void> {
  if (!me.organizationId) return;
  const organization = await api('GET', `/organizations/${me.organizationId}`, { struct: OrganizationStruct });
  appStore.set(topBarInfoAtom, {
    userName: me.name,
    organizationName: organization.name,
    profilePictureUrl: me.profilePictureUrl,
    usedSpace: organization.usedSpace,
    storageTb: organization.storage,
    usedCredits: organization.credits.usedCredits,
    activeCredits: organization.credits.activeCredits,
    creditsActive: organization.credits.status === 'ACTIVE',
  });
}

export async function signIn(email: string, password: string, code: string): Promise<Me> {
  const session = await api('POST', '/login', { body: { email: email.trim(), password, code }, struct: SessionStruct });
  return startSession(session);
}
