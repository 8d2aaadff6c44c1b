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
const toNotMobile = (path: string): RouteDecision => redirect(path === '/' ? '/not-mobile' : `/not-mobile?from=${encodeURIComponent(path)}`);

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
  return from && from.startsWith('/') && !from.startsWith('//') && !from.startsWith('/\\') && from !== '/not-mobile' ? from : '/';
}

/**
 * Pages open to anyone on any window. /pricing is the public plans page (C§7: payment-plans
 * needs no token): like /help it is read, not worked in, so a link opened on a phone shows the
 * prices; its buttons lead on to /register or settings, which keep the desktop rule.
 */
const PUBLIC_PATHS = new Set(['/not-mobile', '/help', '/pricing', '/404', '/recover-password', '/change-password']);
/**
 * A guest's review page (share links, issue 13): the link is the credential, whoever opens it
 * and on whatever window (a reviewer forwarded the link may well open it on a phone).
 */
const GUEST_REVIEW_PATH = /^\/review\/[A-Za-z0-9._-]+$/;
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
  if (PUBLIC_PATHS.has(path) || GUEST_REVIEW_PATH.test(path)) return render;
  if (path === '/') return isMobile ? toNotMobile(path) : redirect(homeFor(role));
  if (path === '/login' || path === '/login/user') {
    if (isMobile) return toNotMobile(path);
    return role ? redirect(homeFor(role)) : render;
  }
  if (path === '/register') return isMobile ? toNotMobile(path) : render;
  if (isCustomerPath(path)) {
    if (!role) return redirect('/login/user');
    if (!isCustomerRole(role)) return redirect('/404');
    if (isMobile) return toNotMobile(path);
    if (visitor.withoutOrganization) return redirect('/register');
    return path === '/user' ? redirect('/user/projects') : render;
  }
  if (isStaffPath(path)) {
    if (!role) return redirect('/login');
    if (!isStaffRole(role)) return redirect('/404');
    if (isMobile) return toNotMobile(path);
    if (role === 'EDITOR' && MANAGER_PATHS.includes(path)) return redirect('/dashboard');
    return render;
  }
  return redirect('/404');
}
