import { atom, createStore } from './state.ts';
import type { Me } from '@/domain/contract/me.ts';
import { readStored, writeStored } from './local-store.ts';
import { clearOfflineCache } from './offline-cache.ts';
import { queryClient } from './query.ts';

/** The one jotai store: the API client reads the token from it outside React. */
export const appStore = createStore();

/** An atom mirrored to localStorage, so a reload restores it before the app mounts (C§4). */
function storedAtom<T>(key: Parameters<typeof readStored>[0]) {
  const base = atom<T | null>(readStored<T>(key));
  return atom(
    (get) => get(base),
    (_get, set, value: T | null) => {
      set(base, value);
      writeStored(key, value);
    },
  );
}

export const tokenAtom = storedAtom<string>('token');
/** The admin's own token, kept aside while impersonating a customer. */
export const adminTokenAtom = storedAtom<string>('adminToken');
export const orgIdAtom = storedAtom<number>('orgId');
/** Who the token belongs to; kept with the token so the app can start offline signed in. */
export const meAtom = storedAtom<Me>('me');
if (!appStore.get(tokenAtom) && appStore.get(meAtom)) appStore.set(meAtom, null);

/**
 * True while the server cannot be reached (a call failed on the network, or the browser says it
 * is offline): the shells show the offline banner and actions that need the server are disabled.
 */
export const offlineAtom = atom(typeof navigator !== 'undefined' && navigator.onLine === false);

/**
 * Forgets what the signed-in customer's pages left in the browser: the stored project list,
 * the top bar figures and the offline copies of their pages. Used at every sign-out, and when
 * an admin leaves a customer's session (Admin logout), which keeps the admin's own token.
 */
export function clearCustomerData(): void {
  appStore.set(orgIdAtom, null);
  writeStored('topBarInfo', null);
  writeStored('projects', null);
  void clearOfflineCache();
  // Every answer read for this session goes with it: the next user never sees them, even briefly.
  queryClient.clear();
}

const sessionEndListeners = new Set<(userId: number) => void>();

/**
 * Told when a session ends in this tab (sign-out, a refused token, a sign-out in another tab),
 * with the user it belonged to. The upload client forgets that user's queue here: src/lib
 * cannot import it, so it listens. Not told on a reload: nothing ends then.
 */
export function onSessionEnd(listener: (userId: number) => void): () => void {
  sessionEndListeners.add(listener);
  return () => sessionEndListeners.delete(listener);
}

/** Forgets the whole session (logout). */
export function clearSession(): void {
  const userId = appStore.get(meAtom)?.id ?? null;
  appStore.set(tokenAtom, null);
  appStore.set(adminTokenAtom, null);
  appStore.set(meAtom, null);
  clearCustomerData();
  if (userId !== null) for (const listener of sessionEndListeners) listener(userId);
}
