import { PAGES, pageAt, pathTo } from './pages.ts';
import { isCustomerRole, isStaffRole, type RoleName } from './roles.ts';

/** Where the app may be and what it shows (C§2 route table, A§2 entry guard). */
export type RouteDecision = { kind: 'render' } | { kind: 'redirect'; to: string };

export interface Visitor {
  role: RoleName | null;
  /** Window width of 768 px or less. */
  isMobile: boolean;
  /**
   * A customer whose registration stopped after the account step (no organization yet): every
   * customer page sends them to /register, which continues at the organization step.
   */
  withoutOrganization?: boolean;
}

const render: RouteDecision = { kind: 'render' };
const redirect = (to: string): RouteDecision => ({ kind: 'redirect', to });

/**
 * /not-mobile remembers the page it replaced (`?from=`), so "Continue" on a wide window again
 * goes back to that page rather than to /.
 */
const toNotMobile = (path: string): RouteDecision => redirect(path === '/' ? pathTo('notMobile') : `${pathTo('notMobile')}?from=${encodeURIComponent(path)}`);

/**
 * The page to go back to from /not-mobile: the `from` query parameter when it is a path of this
 * app (never another site: `//host` or `https:`), else '/'.
 */
export function notMobileReturnPath(search: string): string {
  let from: string | null = null;
  for (const pair of search.replace(/^\?/, '').split('&')) {
    const [key, value = ''] = pair.split('=');
    if (key !== 'from') continue;
    try {
      from = decodeURIComponent(value.replace(/\+/g, ' '));
    } catch {
      from = null;
    }
    break;
  }
  return from && from.startsWith('/') && !from.startsWith('//') && !from.startsWith('/\\') && from !== pathTo('notMobile') ? from : '/';
}

export function homeFor(role: RoleName | null): string {
  if (isStaffRole(role)) return pathTo('dashboard');
  if (isCustomerRole(role)) return pathTo('projects');
  return pathTo('customerSignIn');
}

/**
 * The decision for `path`. Anonymous visitors of a signed-in area go to sign in (a bookmark
 * should not end on a 404); signed-in users of the wrong portal get /404 as the specs say.
 */
export function decideRoute(rawPath: string, visitor: Visitor): RouteDecision {
  const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
  const { role, isMobile } = visitor;
  const page = pageAt(path)?.page;
  if (page?.anyWindow) return render;
  if (path === '/') return isMobile ? toNotMobile(path) : redirect(homeFor(role));
  if (page === PAGES.staffSignIn || page === PAGES.customerSignIn) {
    if (isMobile) return toNotMobile(path);
    return role ? redirect(homeFor(role)) : render;
  }
  if (page === PAGES.register) return isMobile ? toNotMobile(path) : render;
  if (path === '/user' || page?.portal === 'customer') {
    if (!role) return redirect(pathTo('customerSignIn'));
    if (!isCustomerRole(role)) return redirect(pathTo('notFound'));
    if (isMobile) return toNotMobile(path);
    if (visitor.withoutOrganization) return redirect(pathTo('register'));
    return path === '/user' ? redirect(pathTo('projects')) : render;
  }
  if (page?.portal === 'staff') {
    if (!role) return redirect(pathTo('staffSignIn'));
    if (!isStaffRole(role)) return redirect(pathTo('notFound'));
    if (isMobile) return toNotMobile(path);
    if (role === 'EDITOR' && page.managersOnly) return redirect(pathTo('dashboard'));
    return render;
  }
  return redirect(pathTo('notFound'));
}
