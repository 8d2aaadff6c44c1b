import { isCustomerRole, isStaffRole, type RoleName } from './roles.ts';

/** Where the app may be and what it shows (C§2 route table, A§2 entry guard). */
export type RouteDecision = { kind: 'render' } | { kind: 'redirect'; to: string };

export interface Visitor {
  role: RoleName | null;
  /** Window width of 768 px or less. */
  isMobile: boolean;
}

const render: RouteDecision = { kind: 'render' };
const redirect = (to: string): RouteDecision => ({ kind: 'redirect', to });

/** Pages open to anyone on any window. */
const PUBLIC_PATHS = new Set(['/not-mobile', '/help', '/404', '/recover-password', '/change-password']);
/** Staff pages an EDITOR may not open (A§6: the editor sees only the Dashboard). */
const MANAGER_PATHS = ['/customers', '/editors', '/onboarding', '/admin-settings'];
const STAFF_PATHS = ['/dashboard', ...MANAGER_PATHS];
const STAFF_PREFIXES = ['/project/', '/organization/'];
const CUSTOMER_PAGES = new Set(['/user/projects', '/user/create-project', '/user/content-library', '/user/admin-settings']);

export function homeFor(role: RoleName | null): string {
  if (isStaffRole(role)) return '/dashboard';
  if (isCustomerRole(role)) return '/user/projects';
  return '/login/user';
}

function isStaffPath(path: string): boolean {
  return STAFF_PATHS.includes(path) || STAFF_PREFIXES.some((prefix) => path.startsWith(prefix) && /^\/[a-z]+\/\d+$/.test(path));
}

function isCustomerPath(path: string): boolean {
  return path === '/user' || CUSTOMER_PAGES.has(path) || /^\/user\/project\/\d+$/.test(path);
}

/**
 * The decision for `path`. Anonymous visitors of a signed-in area go to sign in (a bookmark
 * should not end on a 404); signed-in users of the wrong portal get /404 as the specs say.
 */
export function decideRoute(rawPath: string, visitor: Visitor): RouteDecision {
  const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
  const { role, isMobile } = visitor;
  if (PUBLIC_PATHS.has(path)) return render;
  if (path === '/') return isMobile ? redirect('/not-mobile') : redirect(homeFor(role));
  if (path === '/login' || path === '/login/user') {
    if (isMobile) return redirect('/not-mobile');
    return role ? redirect(homeFor(role)) : render;
  }
  if (path === '/register') return isMobile ? redirect('/not-mobile') : render;
  if (isCustomerPath(path)) {
    if (!role) return redirect('/login/user');
    if (!isCustomerRole(role)) return redirect('/404');
    if (isMobile) return redirect('/not-mobile');
    return path === '/user' ? redirect('/user/projects') : render;
  }
  if (isStaffPath(path)) {
    if (!role) return redirect('/login');
    if (!isStaffRole(role)) return redirect('/404');
    if (isMobile) return redirect('/not-mobile');
    if (role === 'EDITOR' && MANAGER_PATHS.includes(path)) return redirect('/dashboard');
    return render;
  }
  return redirect('/404');
}
