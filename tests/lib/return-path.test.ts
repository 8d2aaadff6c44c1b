import { describe, expect, it } from 'vitest';
import { portalOfPath, returnPathAfterSignIn, sanitizeReturnPath, signInUrl } from '../../src/lib/return-path.ts';

describe('return path after sign-in', () => {
  it('keeps same-origin relative paths with their query and hash', () => {
    expect(sanitizeReturnPath('/user/project/12')).toBe('/user/project/12');
    expect(sanitizeReturnPath('/user/admin-settings?tab=subscription')).toBe('/user/admin-settings?tab=subscription');
    expect(sanitizeReturnPath('/dashboard#top')).toBe('/dashboard#top');
  });

  it.each([
    'https://evil.example/user/projects',
    '//evil.example/user/projects',
    '/\\evil.example',
    '\\\\evil.example',
    '/\\/evil.example',
    'javascript:alert(1)',
    'user/projects',
    '',
    ' /user/projects',
    '/user/projects\n//evil.example',
    '/\t/evil.example',
    'http:/evil.example',
    '/login',
    '/login/user?next=/user/projects',
    '/login/',
  ])('refuses %j', (raw) => {
    expect(sanitizeReturnPath(raw)).toBeNull();
  });

  it('refuses what is not a string', () => {
    expect(sanitizeReturnPath(null)).toBeNull();
    expect(sanitizeReturnPath(undefined)).toBeNull();
    expect(sanitizeReturnPath(`/${'a'.repeat(3000)}`)).toBeNull();
  });

  it('normalizes dot segments so they cannot climb out of the origin', () => {
    expect(sanitizeReturnPath('/user/../dashboard')).toBe('/dashboard');
    expect(sanitizeReturnPath('/./login')).toBeNull();
    // Dot segments that resolve to a protocol-relative "//host" are refused after resolving.
    for (const raw of ['/.//evil.com', '/..//evil.com', '/%2e%2e//evil.com', '/user/..//evil.com/x']) expect(sanitizeReturnPath(raw), raw).toBeNull();
  });

  it('sends each portal to its sign-in page, with next only for a page of that portal', () => {
    expect(signInUrl('customer', '/user/project/12')).toBe('/login/user?next=%2Fuser%2Fproject%2F12');
    expect(signInUrl('staff', '/project/12?x=1')).toBe('/login?next=%2Fproject%2F12%3Fx%3D1');
    expect(signInUrl('staff', '/user/project/12')).toBe('/login');
    expect(signInUrl('customer', '/dashboard')).toBe('/login/user');
    expect(signInUrl('customer', '//evil.example')).toBe('/login/user');
    expect(signInUrl('customer', '/login/user')).toBe('/login/user');
  });

  it('tells the portal of a path', () => {
    expect(portalOfPath('/user/projects')).toBe('customer');
    expect(portalOfPath('/organization/4')).toBe('staff');
    expect(portalOfPath('/dashboard')).toBe('staff');
    expect(portalOfPath('/help')).toBeNull();
  });

  it('lands only on a page the signed-in role may open', () => {
    expect(returnPathAfterSignIn('/user/project/12', 'OWNER')).toBe('/user/project/12');
    expect(returnPathAfterSignIn('/user/project/12', 'ADMIN')).toBeNull();
    expect(returnPathAfterSignIn('/customers', 'EDITOR')).toBeNull();
    expect(returnPathAfterSignIn('/project/3', 'EDITOR')).toBe('/project/3');
    expect(returnPathAfterSignIn('https://evil.example/', 'OWNER')).toBeNull();
    expect(returnPathAfterSignIn(null, 'OWNER')).toBeNull();
    expect(returnPathAfterSignIn('/user/projects', null)).toBeNull();
  });
});
