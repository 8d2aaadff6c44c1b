import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { cacheGeneration, cacheKey, clearOfflineCache, getCached, isCacheableRead, putCached } from '../../src/lib/offline-cache.ts';

describe('offline cache keys', () => {
  it('keys by user, path and query, whatever the order of the query fields', () => {
    expect(cacheKey(7, '/organizations/3/projects', { section: 'editing', start: 0, limit: 24 })).toBe(
      '7:/organizations/3/projects?limit=24&section=editing&start=0',
    );
    expect(cacheKey(7, '/organizations/3/projects', { start: 0, limit: 24, section: 'editing' })).toBe(
      cacheKey(7, '/organizations/3/projects', { section: 'editing', start: 0, limit: 24 }),
    );
    expect(cacheKey(8, '/projects/12')).toBe('8:/projects/12');
    expect(cacheKey(8, '/projects/12', { type: undefined, x: null })).toBe('8:/projects/12');
    expect(cacheKey(7, '/projects/12')).not.toBe(cacheKey(8, '/projects/12'));
  });

  it('keeps only the reads of the offline pages', () => {
    expect(isCacheableRead('GET', '/organizations/3/projects')).toBe(true);
    expect(isCacheableRead('GET', '/projects/12')).toBe(true);
    expect(isCacheableRead('GET', '/projects/12/assets')).toBe(true);
    expect(isCacheableRead('GET', '/organizations/3')).toBe(true);
    expect(isCacheableRead('PATCH', '/projects/12')).toBe(false);
    expect(isCacheableRead('GET', '/me')).toBe(false);
    expect(isCacheableRead('GET', '/organizations/3/users')).toBe(false);
    expect(isCacheableRead('GET', '/projects')).toBe(false);
  });
});

describe('offline cache store', () => {
  it('answers the last copy and forgets everything at sign-out', async () => {
    const key = cacheKey(1, '/projects/5');
    await putCached(1, key, { id: 5, name: 'Old' });
    await putCached(1, key, { id: 5, name: 'New' });
    expect((await getCached(key))?.data).toEqual({ id: 5, name: 'New' });
    await clearOfflineCache();
    expect(await getCached(key)).toBeNull();
  });

  it('drops a write that began before a sign-out', async () => {
    const key = cacheKey(1, '/projects/6');
    const started = cacheGeneration();
    await clearOfflineCache();
    await putCached(1, key, { id: 6 }, started);
    expect(await getCached(key)).toBeNull();
  });
});
