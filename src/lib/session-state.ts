import { atom, createStore } from './state.ts';
import type { Me } from '@/domain/contract/me.ts';
import { readStored, writeStored } from './local-store.ts';

/** The one jotai store: the API client reads the token from it outside React. */
export const appStore = createStore();

export interface TopBarInfo {
  userName: string;
  organizationName: string | null;
  profilePictureUrl: string | null;
  usedSpace: number;
  storageTb: number;
  usedCredits: number;
  activeCredits: number;
  creditsActive: boolean;
}

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
export const topBarInfoAtom = storedAtom<TopBarInfo>('topBarInfo');
export const meAtom = atom<Me | null>(null);

/** Forgets the whole session (logout). */
export function clearSession(): void {
  appStore.set(tokenAtom, null);
  appStore.set(adminTokenAtom, null);
  appStore.set(orgIdAtom, null);
  appStore.set(topBarInfoAtom, null);
  appStore.set(meAtom, null);
  writeStored('projects', null);
}
