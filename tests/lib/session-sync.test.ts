import { describe, expect, it, vi } from 'vitest';

// session-state mirrors atoms to localStorage: a small in-memory one for Node.
const memory = new Map<string, string>();
vi.stubGlobal('localStorage', {
  getItem: (key: string) => memory.get(key) ?? null,
  setItem: (key: string, value: string) => void memory.set(key, value),
  removeItem: (key: string) => void memory.delete(key),
});

const { sessionChange, signInPageFor } = await import('../../src/lib/session-sync.ts');
const { appStore, clearSession, meAtom, onSessionEnd, tokenAtom } = await import('../../src/lib/session-state.ts');

describe('another tab changed the stored session (issue 12)', () => {
  it('signs this tab out when the token is gone', () => {
    expect(sessionChange(null, 'mine')).toBe('signed-out');
  });

  it('joins a session another tab signed in, when this tab has none', () => {
    expect(sessionChange('theirs', null)).toBe('signed-in');
  });

  it('keeps its own token when another tab refreshed or switched it', () => {
    expect(sessionChange('refreshed', 'mine')).toBe('none');
    expect(sessionChange('mine', 'mine')).toBe('none');
    expect(sessionChange(null, null)).toBe('none');
  });

  it('goes to the sign-in page of its portal, without a return path', () => {
    expect(signInPageFor('staff')).toBe('/login');
    expect(signInPageFor('customer')).toBe('/login/user');
  });
});

describe('the end of a session', () => {
  it('tells its listeners whose session ended, so the upload queue can go with it', () => {
    const ended: number[] = [];
    const stop = onSessionEnd((userId) => ended.push(userId));
    appStore.set(tokenAtom, 'token');
    appStore.set(meAtom, { id: 42 } as never);
    clearSession();
    expect(ended).toEqual([42]);
    // Nothing to tell when no one was signed in.
    clearSession();
    expect(ended).toEqual([42]);
    stop();
  });
});
