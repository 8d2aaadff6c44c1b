import { describe, expect, it } from 'vitest';
import { decideRoute, notMobileReturnPath, type Visitor } from '../../src/domain/route-guard.ts';
import type { RoleName } from '../../src/domain/roles.ts';

const desktop = (role: RoleName | null): Visitor => ({ role, isMobile: false });
const mobile = (role: RoleName | null): Visitor => ({ role, isMobile: true });
const go = (to: string) => ({ kind: 'redirect', to });
/** The narrow-window notice, remembering the page it replaced (issue 12). */
const notMobile = (from: string) => go(from === '/' ? '/not-mobile' : `/not-mobile?from=${encodeURIComponent(from)}`);
const render = { kind: 'render' };

describe('route guard', () => {
  it.each([
    ['SUPERADMIN', '/dashboard'],
    ['ADMIN', '/dashboard'],
    ['EDITOR', '/dashboard'],
    ['OWNER', '/user/projects'],
    ['USER', '/user/projects'],
    [null, '/login/user'],
  ] as const)('sends %s from / to %s', (role, to) => {
    expect(decideRoute('/', desktop(role))).toEqual(go(to));
  });

  it('sends narrow windows to /not-mobile', () => {
    for (const path of ['/', '/login', '/login/user', '/register']) expect(decideRoute(path, mobile(null))).toEqual(notMobile(path));
    expect(decideRoute('/user/projects', mobile('OWNER'))).toEqual(notMobile('/user/projects'));
    expect(decideRoute('/dashboard', mobile('ADMIN'))).toEqual(notMobile('/dashboard'));
  });

  it('sends signed-in users away from the sign-in pages', () => {
    expect(decideRoute('/login', desktop('ADMIN'))).toEqual(go('/dashboard'));
    expect(decideRoute('/login/user', desktop('USER'))).toEqual(go('/user/projects'));
    expect(decideRoute('/login', desktop(null))).toEqual(render);
    expect(decideRoute('/register', desktop('OWNER'))).toEqual(render);
  });

  it('keeps /user/* for OWNER and USER', () => {
    expect(decideRoute('/user/projects', desktop('OWNER'))).toEqual(render);
    expect(decideRoute('/user/project/12', desktop('USER'))).toEqual(render);
    expect(decideRoute('/user', desktop('USER'))).toEqual(go('/user/projects'));
    expect(decideRoute('/user/projects', desktop('ADMIN'))).toEqual(go('/404'));
    expect(decideRoute('/user/projects', desktop(null))).toEqual(go('/login/user'));
    expect(decideRoute('/user/project/abc', desktop('OWNER'))).toEqual(go('/404'));
  });

  it('keeps the admin area for staff, and the Dashboard only for editors', () => {
    expect(decideRoute('/dashboard', desktop('EDITOR'))).toEqual(render);
    expect(decideRoute('/project/5', desktop('EDITOR'))).toEqual(render);
    expect(decideRoute('/organization/5', desktop('ADMIN'))).toEqual(render);
    expect(decideRoute('/customers', desktop('EDITOR'))).toEqual(go('/dashboard'));
    expect(decideRoute('/customers', desktop('SUPERADMIN'))).toEqual(render);
    expect(decideRoute('/dashboard', desktop('OWNER'))).toEqual(go('/404'));
    expect(decideRoute('/dashboard', desktop(null))).toEqual(go('/login'));
  });

  it('leaves public pages open and sends unknown paths to /404', () => {
    for (const path of ['/help', '/404', '/not-mobile', '/recover-password', '/change-password']) expect(decideRoute(path, mobile(null))).toEqual(render);
    expect(decideRoute('/nope', desktop('OWNER'))).toEqual(go('/404'));
    expect(decideRoute('/user/projects/', desktop('OWNER'))).toEqual(render);
  });

  it('opens a guest review link to anyone signed in or not, on any window; only a token fits', () => {
    for (const visitor of [mobile(null), desktop(null), desktop('OWNER'), desktop('EDITOR')])
      expect(decideRoute('/review/12.AbC_-9xyz', visitor)).toEqual(render);
    expect(decideRoute('/review/12/extra', desktop(null))).toEqual(go('/404'));
    expect(decideRoute('/review/', desktop('OWNER'))).toEqual(go('/404'));
  });

  it.each([null, 'OWNER', 'USER', 'SUPERADMIN', 'ADMIN', 'EDITOR'] as const)('shows /pricing to %s on any window', (role) => {
    expect(decideRoute('/pricing', desktop(role))).toEqual(render);
    expect(decideRoute('/pricing', mobile(role))).toEqual(render);
    expect(decideRoute('/pricing/', desktop(role))).toEqual(render);
  });

  it('keeps the desktop rule on the pages /pricing leads to', () => {
    expect(decideRoute('/register', mobile(null))).toEqual(notMobile('/register'));
    expect(decideRoute('/user/admin-settings', mobile('OWNER'))).toEqual(notMobile('/user/admin-settings'));
    expect(decideRoute('/user/admin-settings', desktop('OWNER'))).toEqual(render);
    expect(decideRoute('/pricing/plans', desktop(null))).toEqual(go('/404'));
  });
});

describe('the narrow-window notice returns to the page it replaced', () => {
  it('remembers the page in ?from=', () => {
    expect(decideRoute('/user/create-project', { role: 'OWNER', isMobile: true })).toEqual({
      kind: 'redirect',
      to: '/not-mobile?from=%2Fuser%2Fcreate-project',
    });
    expect(decideRoute('/dashboard', { role: 'ADMIN', isMobile: true })).toEqual({ kind: 'redirect', to: '/not-mobile?from=%2Fdashboard' });
    expect(decideRoute('/', { role: 'OWNER', isMobile: true })).toEqual({ kind: 'redirect', to: '/not-mobile' });
  });

  it('goes back only to a path of this app', () => {
    expect(notMobileReturnPath('?from=%2Fuser%2Fcreate-project')).toBe('/user/create-project');
    expect(notMobileReturnPath('from=/user/project/12')).toBe('/user/project/12');
    expect(notMobileReturnPath('')).toBe('/');
    expect(notMobileReturnPath('?from=https://evil.example')).toBe('/');
    expect(notMobileReturnPath('?from=//evil.example')).toBe('/');
    expect(notMobileReturnPath('?from=/\\evil.example')).toBe('/');
    expect(notMobileReturnPath('?from=/not-mobile')).toBe('/');
  });
});

describe('an owner whose registration stopped after the account step', () => {
  it('is sent from every customer page to /register (which continues at the organization step)', () => {
    for (const path of ['/user/projects', '/user/project/3', '/user/content-library', '/user/admin-settings', '/user'])
      expect(decideRoute(path, { role: 'OWNER', isMobile: false, withoutOrganization: true })).toEqual({ kind: 'redirect', to: '/register' });
    expect(decideRoute('/register', { role: 'OWNER', isMobile: false, withoutOrganization: true })).toEqual({ kind: 'render' });
    expect(decideRoute('/user/projects', { role: 'OWNER', isMobile: false, withoutOrganization: false })).toEqual({ kind: 'render' });
  });
});
