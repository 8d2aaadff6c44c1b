/** The items C§3 keeps in the browser, under one prefix so nothing else collides. */
export const STORED_KEYS = ['token', 'adminToken', 'orgId', 'projects', 'topBarInfo'] as const;
export type StoredKey = (typeof STORED_KEYS)[number];

const PREFIX = 'cutdesk.';

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
