import { openDB, type IDBPDatabase } from 'idb';

/**
 * The last successful answers of the reads the board, the content library and the project page
 * make, kept in IndexedDB so an installed app opened without a network shows what was last
 * loaded (read-only). Keyed by user and request; cleared at every sign-out.
 */

const DB_NAME = 'cutdesk-offline';
const STORE = 'answers';

interface CachedAnswer {
  key: string;
  userId: number;
  data: unknown;
  savedAt: number;
}

/** GET reads worth keeping: board sections and library pages, one project and its files, the organization. */
const CACHEABLE = [/^\/organizations\/\d+\/projects$/, /^\/projects\/\d+$/, /^\/projects\/\d+\/assets$/, /^\/organizations\/\d+$/];

export function isCacheableRead(method: string, path: string): boolean {
  return method === 'GET' && CACHEABLE.some((pattern) => pattern.test(path));
}

/** One key per user and request: the path plus its query, sorted so the order of fields does not matter. */
export function cacheKey(userId: number, path: string, query?: Record<string, unknown>): string {
  const params = Object.entries(query ?? {})
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([name, value]) => [name, String(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const search = new URLSearchParams(params as [string, string][]).toString();
  return `${userId}:${path}${search ? `?${search}` : ''}`;
}

let database: Promise<IDBPDatabase> | null = null;
/** Bumped by every clear: a write that began before a sign-out never lands after it. */
let generation = 0;

function db(): Promise<IDBPDatabase> | null {
  if (typeof indexedDB === 'undefined') return null;
  database ??= openDB(DB_NAME, 1, {
    upgrade(upgrading) {
      upgrading.createObjectStore(STORE, { keyPath: 'key' });
    },
  }).catch((error: unknown) => {
    database = null;
    throw error;
  });
  return database;
}

/** The generation a write must still be in to land; take it when the request starts. */
export function cacheGeneration(): number {
  return generation;
}

export async function putCached(userId: number, key: string, data: unknown, startedIn = generation): Promise<void> {
  const open = db();
  if (!open || startedIn !== generation) return;
  try {
    const handle = await open;
    if (startedIn !== generation) return;
    await handle.put(STORE, { key, userId, data, savedAt: Date.now() } satisfies CachedAnswer);
  } catch {
    // A full or blocked store only costs the offline copy.
  }
}

export async function getCached(key: string): Promise<{ data: unknown; savedAt: number } | null> {
  const open = db();
  if (!open) return null;
  try {
    const found = (await (await open).get(STORE, key)) as CachedAnswer | undefined;
    return found ? { data: found.data, savedAt: found.savedAt } : null;
  } catch {
    return null;
  }
}

/** Forgets every kept answer (sign-out, end of a session, end of an impersonation). */
export async function clearOfflineCache(): Promise<void> {
  generation += 1;
  const open = db();
  if (!open) return;
  try {
    await (await open).clear(STORE);
  } catch {
    // Nothing kept, or the store is gone already.
  }
}
