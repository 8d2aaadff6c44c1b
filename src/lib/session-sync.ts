import type { Me } from '@/domain/contract/me.ts';
import { navigate } from 'wouter/use-browser-location';
import { readStored, storageKeyOf } from './local-store.ts';
import { pathTo, type Portal } from '@/domain/pages.ts';
import { portalOfPath, portalOfRole } from './return-path.ts';
import { adminTokenAtom, appStore, clearSession, meAtom, orgIdAtom, tokenAtom } from './session-state.ts';

/**
 * Tabs of the app share one session (the token in localStorage) but each keeps it in memory:
 * another tab's sign-out or sign-in reaches this one through the `storage` event.
 */

export type SessionChange = 'signed-out' | 'signed-in' | 'none';

/**
 * What a change of the stored token means for this tab. `stored` is the token now in
 * localStorage, `mine` the one this tab holds.
 * - gone while this tab has one: the user signed out elsewhere (or their session ended there);
 * - there while this tab has none: signed in elsewhere, this tab joins that session;
 * - another token while this tab has one (a refresh, Log In As in another tab): this tab keeps
 *   its own, still valid, token; it picks the stored one up at the next reload.
 */
export function sessionChange(stored: string | null, mine: string | null): SessionChange {
  if (!stored) return mine ? 'signed-out' : 'none';
  return mine ? 'none' : 'signed-in';
}

/** The sign-in page for a tab whose session ended elsewhere: no `next`, the user chose to leave. */
export function signInPageFor(portal: Portal): string {
  return pathTo(portal === 'staff' ? 'staffSignIn' : 'customerSignIn');
}

function endHere(): void {
  const portal = portalOfRole(appStore.get(meAtom)?.role.name) ?? portalOfPath(window.location.pathname) ?? 'customer';
  // Away from the page first: with the session cleared first, the guard would add the page as `next`.
  navigate(signInPageFor(portal), { replace: true });
  clearSession();
}

/** Takes the session another tab stored; `me` may come in a later event than the token. */
function joinStoredSession(): void {
  const token = readStored<string>('token');
  if (!token) return;
  if (appStore.get(tokenAtom) !== token) appStore.set(tokenAtom, token);
  const me = readStored<Me>('me');
  if (!me || appStore.get(meAtom)) return;
  appStore.set(adminTokenAtom, readStored<string>('adminToken'));
  appStore.set(orgIdAtom, readStored<number>('orgId'));
  // The route guard sees the role now and sends the sign-in page on to the user's home.
  appStore.set(meAtom, me);
}

const WATCHED = new Set([storageKeyOf('token'), storageKeyOf('me')]);

function onStorage(event: StorageEvent): void {
  // `key` is null when another tab cleared the whole storage.
  if (event.key !== null && !WATCHED.has(event.key)) return;
  const mine = appStore.get(tokenAtom);
  const change = sessionChange(readStored<string>('token'), mine);
  if (change === 'signed-out') endHere();
  else if (change === 'signed-in') joinStoredSession();
  // This tab joined with the token first and the user now arrives.
  else if (mine && !appStore.get(meAtom) && readStored<string>('token') === mine) joinStoredSession();
}

let installed = false;

/** Listens to the other tabs; once, at start-up. */
export function installSessionSync(): void {
  if (installed || typeof window === 'undefined') return;
  installed = true;
  window.addEventListener('storage', onStorage);
}
