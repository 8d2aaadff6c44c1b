import { describe, expect, it } from 'vitest';
import { decideRoute, type Visitor } from '../../src/domain/route-guard.ts';
import { returnPathAfterSignIn, withReturnPath } from '../../src/lib/return-path.ts';

const anonymous: Visitor = { role: null, isMobile: false };

/** What routes.tsx does: the guard's decision, with the page asked for as `next` on a sign-in redirect. */
function redirectFor(pathWithSearch: string, visitor: Visitor = anonymous): string | null {
  const decision = decideRoute(pathWithSearch.split('?')[0]!, visitor);
  return decision.kind === 'redirect' ? withReturnPath(decision.to, pathWithSearch) : null;
}

describe('a bookmarked page opened signed out (issue 12)', () => {
  it('sends a customer page to the customer sign-in with the page as next', () => {
    expect(redirectFor('/user/project/12')).toBe('/login/user?next=%2Fuser%2Fproject%2F12');
    expect(redirectFor('/user/content-library')).toBe('/login/user?next=%2Fuser%2Fcontent-library');
  });

  it('keeps the query of the bookmark', () => {
    expect(redirectFor('/user/admin-settings?tab=billing')).toBe('/login/user?next=%2Fuser%2Fadmin-settings%3Ftab%3Dbilling');
  });

  it('sends a staff page to the staff sign-in with the page as next', () => {
    expect(redirectFor('/project/5')).toBe('/login?next=%2Fproject%2F5');
    expect(redirectFor('/dashboard')).toBe('/login?next=%2Fdashboard');
    expect(redirectFor('/organization/9')).toBe('/login?next=%2Forganization%2F9');
  });

  it('lands on the bookmarked page after signing in', () => {
    const next = new URLSearchParams(redirectFor('/user/project/12')!.split('?')[1]).get('next');
    expect(returnPathAfterSignIn(next, 'OWNER')).toBe('/user/project/12');
    const staffNext = new URLSearchParams(redirectFor('/project/5')!.split('?')[1]).get('next');
    expect(returnPathAfterSignIn(staffNext, 'EDITOR')).toBe('/project/5');
  });

  it('adds no next to the start page, nor to redirects that are not a sign-in', () => {
    expect(redirectFor('/')).toBe('/login/user');
    expect(redirectFor('/nope')).toBe('/404');
    expect(redirectFor('/user/projects', { role: 'ADMIN', isMobile: false })).toBe('/404');
    expect(redirectFor('/customers', { role: 'EDITOR', isMobile: false })).toBe('/dashboard');
    expect(redirectFor('/user/projects', { role: null, isMobile: true })).toBe('/login/user?next=%2Fuser%2Fprojects');
  });

  it('never turns a path into an open redirect', () => {
    for (const path of ['//evil.example/user/projects', '/\\evil.example', 'https://evil.example/user/projects', '/user/../login']) {
      expect(withReturnPath('/login/user', path)).toBe('/login/user');
    }
    // A page of the other portal is not carried to this portal's sign-in.
    expect(withReturnPath('/login/user', '/dashboard')).toBe('/login/user');
    expect(withReturnPath('/login', '/user/project/12')).toBe('/login');
  });

  it('leaves other redirects as the guard said', () => {
    expect(withReturnPath('/not-mobile?from=%2Fdashboard', '/dashboard')).toBe('/not-mobile?from=%2Fdashboard');
    expect(withReturnPath('/register', '/user/projects')).toBe('/register');
  });
});
