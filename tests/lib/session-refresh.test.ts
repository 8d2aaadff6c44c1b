import { beforeEach, describe, expect, it, vi } from 'vitest';

// session-state mirrors atoms to localStorage: a small in-memory one for Node.
const memory = new Map<string, string>();
vi.stubGlobal('localStorage', {
  getItem: (key: string) => memory.get(key) ?? null,
  setItem: (key: string, value: string) => void memory.set(key, value),
  removeItem: (key: string) => void memory.delete(key),
});

const DAY = 86_400_000;
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (issuedMs: number, lifeMs: number, n = 0) =>
  `${b64url({ alg: 'HS256' })}.${b64url({ sub: '1', n, iat: Math.floor(issuedMs / 1000), exp: Math.floor((issuedMs + lifeMs) / 1000) })}.sig`;

const calls: string[] = [];
let answer: () => Promise<unknown> = () => Promise.resolve({});
vi.mock('../../src/lib/api-client.ts', () => ({
  ApiError: class ApiError extends Error {
    status = 0;
  },
  onUnauthorized: () => undefined,
  call: (operation: { method: string; path: string }) => {
    calls.push(`${operation.method} ${operation.path}`);
    return answer();
  },
}));

const { appStore, tokenAtom } = await import('../../src/lib/session-state.ts');
const { refreshTokenIfNeeded } = await import('../../src/lib/session.ts');

describe('token refresh (one at a time)', () => {
  beforeEach(() => {
    calls.length = 0;
    appStore.set(tokenAtom, null);
  });

  it('does nothing before 80 % of the token life', async () => {
    const now = Date.now();
    appStore.set(tokenAtom, jwt(now - DAY, 7 * DAY));
    await refreshTokenIfNeeded(now);
    expect(calls).toEqual([]);
  });

  it('asks the server once however many callers want a due refresh, and keeps the fresh token', async () => {
    const now = Date.now();
    const fresh = jwt(now, 7 * DAY, 1);
    let release!: () => void;
    answer = () => new Promise((resolve) => (release = () => resolve({ token: fresh })));
    appStore.set(tokenAtom, jwt(now - 6 * DAY, 7 * DAY));
    const first = refreshTokenIfNeeded(now);
    const second = refreshTokenIfNeeded(now);
    await Promise.resolve();
    release();
    await Promise.all([first, second]);
    expect(calls).toEqual(['PUT /me/refresh-token']);
    expect(appStore.get(tokenAtom)).toBe(fresh);
  });

  it('drops the answer when the user signed out while the refresh was under way', async () => {
    const now = Date.now();
    let release!: () => void;
    answer = () => new Promise((resolve) => (release = () => resolve({ token: jwt(now, 7 * DAY, 2) })));
    appStore.set(tokenAtom, jwt(now - 6 * DAY, 7 * DAY));
    const refreshing = refreshTokenIfNeeded(now);
    await Promise.resolve();
    appStore.set(tokenAtom, null);
    release();
    await refreshing;
    expect(appStore.get(tokenAtom)).toBeNull();
  });
});
