/**
 * The items C§3 keeps in the browser, under one prefix so nothing else collides. `me` (who the
 * token belongs to) is kept with the token so an app opened offline starts signed in; it is no
 * more secret than the token. Every item is removed at sign-out (`clearStoredSession`).
 */
export const STORED_KEYS = ['token', 'adminToken', 'orgId', 'projects', 'topBarInfo', 'me'] as const;
export type StoredKey = (typeof STORED_KEYS)[number];

const PREFIX = 'cutdesk.';

/** The localStorage key of a stored item, as another tab's `storage` event names it. */
export function storageKeyOf(key: StoredKey): string {
  return PREFIX + key;
}

export function readStored<T>(key: StoredKey): T | null {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw === null ? null : (JSON.parse(raw) as T);
  } catch {
    return null;
  }
}

export function writeStored(key: StoredKey, value: unknown): void {
  if (value === null || value === undefined) localStorage.removeItem(PREFIX + key);
  else localStorage.setItem(PREFIX + key, JSON.stringify(value));
}
