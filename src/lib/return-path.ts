import { pageAt, pathTo, type Portal } from '@/domain/pages.ts';
import { decideRoute } from '@/domain/route-guard.ts';
import { isStaffRole, type RoleName } from '@/domain/roles.ts';

const SIGN_IN_PAGES = new Set([pathTo('staffSignIn'), pathTo('customerSignIn')]);
/** Any origin works: only a path that stays on it survives the check below. */
const BASE = 'https://cutdesk.invalid';

/**
 * `raw` as a same-origin relative path ("/user/project/12?tab=x"), or null. Anything that could
 * leave the site is refused (an open redirect is a security bug): absolute URLs, protocol-relative
 * "//host", backslashes (browsers read "/\host" as "//host"), control characters and schemes.
 * Sign-in pages are refused too, so a return path never loops back to a sign-in form.
 */
export function sanitizeReturnPath(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2048) return null;
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  if (SIGN_IN_PAGES.has(path)) return null;
  // Checked again after URL resolved dot segments: "/.//evil.com" resolves to "//evil.com".
  const result = `${url.pathname}${url.search}${url.hash}`;
  if (result.startsWith('//') || result.includes('\\')) return null;
  return result;
}

/** The portal a path belongs to, when it belongs to one. */
export function portalOfPath(path: string): Portal | null {
  if (path === '/user') return 'customer';
  return pageAt(path)?.page.portal ?? null;
}

export function portalOfRole(role: RoleName | null | undefined): Portal | null {
  if (!role) return null;
  return isStaffRole(role) ? 'staff' : 'customer';
}

/**
 * Where a user whose session ended goes: the sign-in page of their portal with the page they
 * were on as `next` (only when that page belongs to the same portal).
 */
export function signInUrl(portal: Portal, currentPath: string | null): string {
  const page = pathTo(portal === 'staff' ? 'staffSignIn' : 'customerSignIn');
  const next = sanitizeReturnPath(currentPath);
  if (!next || portalOfPath(next.split(/[?#]/)[0]!) !== portal) return page;
  return `${page}?next=${encodeURIComponent(next)}`;
}

/**
 * Where to land after signing in: `rawNext` when it is a safe path this user may open on a
 * desktop (the route guard renders it), else null (the caller lands on the role's home).
 */
export function returnPathAfterSignIn(rawNext: string | null | undefined, role: RoleName | null): string | null {
  const next = sanitizeReturnPath(rawNext);
  if (!next || !role) return null;
  const decision = decideRoute(next.split(/[?#]/)[0]!, { role, isMobile: false });
  return decision.kind === 'render' ? next : null;
}

/**
 * The guard's redirect with the return path added: a signed-out visitor of a bookmarked page
 * (`/user/project/12`) is sent to the sign-in page of that page's portal as
 * `/login/user?next=%2Fuser%2Fproject%2F12`, and lands there after signing in. Any other
 * redirect stays as the guard said. `signInUrl` keeps `next` to a safe path of the same portal.
 */
export function withReturnPath(to: string, currentPath: string): string {
  if (to === pathTo('staffSignIn')) return signInUrl('staff', currentPath);
  if (to === pathTo('customerSignIn')) return signInUrl('customer', currentPath);
  return to;
}
