import * as auth from '@/domain/contract/auth.ts';
import type { Session } from '@/domain/contract/auth.ts';
import * as customers from '@/domain/contract/customers.ts';
import * as impersonations from '@/domain/contract/impersonations.ts';
import * as meOperations from '@/domain/contract/me.ts';
import type { Me } from '@/domain/contract/me.ts';
import { homeFor } from '@/domain/route-guard.ts';
import { shouldRefreshToken, tokenExpiryMs } from '@/domain/session.ts';
import { navigate } from 'wouter/use-browser-location';
import { ApiError, call, callAsGuest, onUnauthorized } from './api-client.ts';
import { portalOfPath, portalOfRole, signInUrl } from './return-path.ts';
import { adminTokenAtom, appStore, clearCustomerData, clearSession, meAtom, offlineAtom, orgIdAtom, tokenAtom } from './session-state.ts';
import { clearOfflineCache } from './offline-cache.ts';
import { installSessionSync } from './session-sync.ts';
import { refreshDelayMs, refreshExtends, refreshIsDue } from './token-schedule.ts';
import { pathTo } from '@/domain/pages.ts';

export async function loadMe(): Promise<Me> {
  const me = await call(meOperations.getMe);
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

/* ---- token refresh: on a timer at 80 % of the token's life, when the tab wakes up, at start ---- */

/** After a refresh failed on the network (or the server), try again this much later. */
const REFRESH_RETRY_MS = 60_000;
let refreshTimer: ReturnType<typeof setTimeout> | null = null;
let refreshing: Promise<void> | null = null;
/** A token whose refresh did not push its expiry (the session's absolute end): no more timer for it. */
let cappedToken: string | null = null;

function stopRefreshTimer(): void {
  if (refreshTimer !== null) clearTimeout(refreshTimer);
  refreshTimer = null;
}

function planRefresh(retryInMs?: number): void {
  stopRefreshTimer();
  const token = appStore.get(tokenAtom);
  if (!token || token === cappedToken) return;
  const delay = retryInMs ?? refreshDelayMs(token, Date.now());
  if (delay === null) return;
  refreshTimer = setTimeout(() => {
    refreshTimer = null;
    void refreshToken().catch(() => undefined);
  }, delay);
}

/**
 * One refresh at a time, whoever asks (the timer, a waking tab, the start-up): a second caller
 * gets the refresh already under way. A 401 ends the session through `api`; another failure
 * keeps the token and tries again later.
 */
function refreshToken(): Promise<void> {
  refreshing ??= (async () => {
    const before = appStore.get(tokenAtom);
    if (!before) return;
    try {
      const { token: fresh } = await call(auth.refreshToken);
      // Signed out, or switched to another session, while the refresh was under way.
      if (appStore.get(tokenAtom) !== before) return;
      if (!refreshExtends(before, fresh)) cappedToken = fresh;
      appStore.set(tokenAtom, fresh);
    } catch (error) {
      if (appStore.get(tokenAtom) === before) planRefresh(REFRESH_RETRY_MS);
      throw error;
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** C§4 at start (2 days or fewer left), or the 80 % point of the token's life has passed. */
export async function refreshTokenIfNeeded(now = Date.now()): Promise<void> {
  const token = appStore.get(tokenAtom);
  const expiry = token ? tokenExpiryMs(token) : null;
  if (!token || expiry === null) return;
  if (shouldRefreshToken(expiry, now) || refreshIsDue(token, now)) await refreshToken();
}

function refreshIfDue(): void {
  const token = appStore.get(tokenAtom);
  if (token && refreshIsDue(token, Date.now())) void refreshToken().catch(() => undefined);
  else planRefresh();
}

/* ---- the end of a session: only a 401 ends it ---- */

/** Set while an admin whose customer token was refused goes back to their own session. */
let returningToAdmin = false;

function currentPath(): string {
  return `${window.location.pathname}${window.location.search}`;
}

/**
 * A call made with the session's token got 401. An admin signed in as a customer goes back to
 * their own session, as Admin logout does; anyone else goes to the sign-in page of their portal
 * with the page they were on as `next`, and the session is forgotten.
 */
function endSessionAfter401(token: string): void {
  const adminToken = appStore.get(adminTokenAtom);
  if (adminToken && token !== adminToken) {
    void endImpersonation()
      .then((me) => {
        if (me) navigate(landingFor(me), { replace: true });
      })
      .catch(() => undefined);
    return;
  }
  const portal = returningToAdmin ? 'staff' : (portalOfRole(appStore.get(meAtom)?.role.name) ?? portalOfPath(window.location.pathname) ?? 'customer');
  navigate(signInUrl(portal, currentPath()), { replace: true });
  clearSession();
}

onUnauthorized(endSessionAfter401);

if (typeof window !== 'undefined') {
  // A sign-out in another tab sends this one to sign in too; a sign-in there signs this one in.
  installSessionSync();
  // Signing in, refreshing, switching to a customer's session or signing out re-plans the timer.
  appStore.sub(tokenAtom, () => planRefresh());
  // Timers sleep with the computer: a tab shown again refreshes at once when the time has come.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') refreshIfDue();
  });
  window.addEventListener('online', () => {
    appStore.set(offlineAtom, false);
    refreshIfDue();
  });
  window.addEventListener('offline', () => appStore.set(offlineAtom, true));
}

/**
 * Startup of C§4: the stored items are already in the atoms; load the user when a token is
 * present (except on a change-password link with an e-mail). Only a 401 ends the session (the
 * API client sends the user to sign in): without a network the token and the last known user
 * stay, and the app starts offline, signed in.
 */
export async function restoreSession(location: Location): Promise<void> {
  const token = appStore.get(tokenAtom);
  if (!token) return;
  const onChangePasswordLink = location.pathname === pathTo('changePassword') && new URLSearchParams(location.search).has('email');
  if (onChangePasswordLink) return;
  try {
    await loadMe();
    await refreshTokenIfNeeded();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return;
    // Offline or a failing server: keep the session and the last known user.
  }
  planRefresh();
}

export function landingFor(me: Me | null): string {
  return homeFor(me?.role.name ?? null);
}

export function logout(): void {
  // Signing out while signed in as a customer ends that session on the Log In As trail too.
  if (appStore.get(adminTokenAtom)) void endOnTrail();
  clearSession();
}

/**
 * Issue 36 item 10: the Log In As session of the current (customer) token ends on the trail a
 * superadmin reads. Best-effort and never the session's call: a refused or failed one changes
 * nothing here (an unrecorded end shows as the token's expiry).
 */
async function endOnTrail(): Promise<void> {
  const token = appStore.get(tokenAtom);
  if (!token) return;
  await callAsGuest(impersonations.endImpersonation, {}, { Authorization: `Bearer ${token}` }).catch(() => undefined);
}

/**
 * A§2 Log In As: the admin's own token is kept aside (adminToken) and the session switches to
 * the organization owner's token, whose claims name the admin. On failure the admin session
 * stays as it was.
 */
export async function startImpersonation(organizationId: number): Promise<Me> {
  const adminToken = appStore.get(tokenAtom);
  const session = await call(customers.adminLogin, { params: { id: organizationId } });
  // Nothing read as staff is shown as the customer, nor the other way round.
  clearCustomerData();
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

/**
 * Admin logout: back to the admin's own session, kept aside when impersonation began. Nothing
 * of the customer stays in the browser: their stored project list, top bar figures,
 * organization and offline copies go with their token.
 */
export async function endImpersonation(): Promise<Me | null> {
  const adminToken = appStore.get(adminTokenAtom);
  if (adminToken && appStore.get(tokenAtom) !== adminToken) await endOnTrail();
  appStore.set(adminTokenAtom, null);
  clearCustomerData();
  if (!adminToken) {
    clearSession();
    return null;
  }
  appStore.set(tokenAtom, adminToken);
  // A 401 here ends the admin's own session: they go to the staff sign-in.
  returningToAdmin = true;
  try {
    const me = await loadMe();
    // The customer's pages stay mounted until the caller navigates: a read they made while the
    // admin token was back but `me` still named the customer was kept under the customer's
    // name. It goes too, before the admin's pages show.
    clearCustomerData();
    await clearOfflineCache();
    return me;
  } finally {
    returningToAdmin = false;
  }
}

export async function signIn(email: string, password: string, code: string): Promise<Me> {
  const session = await call(auth.login, { body: { email: email.trim(), password, code } });
  return startSession(session);
}
