/**
 * Every page of the app, named once (issue 33): its path (a wouter pattern), the portal it
 * belongs to and its title. The router, the portals, the route guard, the document titles, the
 * return paths after sign-in and the links the server e-mails all read this table, so a page
 * moves by changing one line. Plain TypeScript: the browser and the server import it alike.
 */

/** The two signed-in areas: staff sign in at /login, customers at /login/user. */
export type Portal = 'staff' | 'customer';

export interface PageDefinition {
  /** A wouter pattern: `:id` is a numeric id, `:token` a link token. */
  readonly path: string;
  /** The portal whose sign-in the page needs; null for pages outside both portals. */
  readonly portal: Portal | null;
  /** The page's name in the window title ("<title> · Cutdesk"). */
  readonly title: string;
  /** Project pages show the project's name once it has loaded, `title` until then. */
  readonly namedByProject?: boolean;
  /** Staff pages an EDITOR may not open (A§6: the editor sees only the Dashboard). */
  readonly managersOnly?: boolean;
  /**
   * Open to anyone on any window: read, not worked in (help, prices, a guest's review link, a
   * password e-mail opened on a phone). Every other page keeps the desktop rule.
   */
  readonly anyWindow?: boolean;
}

export const PAGES = {
  staffSignIn: { path: '/login', portal: null, title: 'Sign in' },
  customerSignIn: { path: '/login/user', portal: null, title: 'Sign in' },
  register: { path: '/register', portal: null, title: 'Create your account' },
  recoverPassword: { path: '/recover-password', portal: null, title: 'Reset your password', anyWindow: true },
  changePassword: { path: '/change-password', portal: null, title: 'Choose a new password', anyWindow: true },
  notMobile: { path: '/not-mobile', portal: null, title: 'Open Cutdesk on a desktop', anyWindow: true },
  help: { path: '/help', portal: null, title: 'Help', anyWindow: true },
  pricing: { path: '/pricing', portal: null, title: 'Pricing', anyWindow: true },
  guestReview: { path: '/review/:token', portal: null, title: 'Review', anyWindow: true },
  notFound: { path: '/404', portal: null, title: 'Page not found', anyWindow: true },

  projects: { path: '/user/projects', portal: 'customer', title: 'Projects' },
  createProject: { path: '/user/create-project', portal: 'customer', title: 'New project' },
  project: { path: '/user/project/:id', portal: 'customer', title: 'Project', namedByProject: true },
  contentLibrary: { path: '/user/content-library', portal: 'customer', title: 'Content Library' },
  settings: { path: '/user/admin-settings', portal: 'customer', title: 'Admin Settings' },

  dashboard: { path: '/dashboard', portal: 'staff', title: 'Dashboard' },
  customers: { path: '/customers', portal: 'staff', title: 'Customers', managersOnly: true },
  editors: { path: '/editors', portal: 'staff', title: 'Editors', managersOnly: true },
  onboarding: { path: '/onboarding', portal: 'staff', title: 'Onboarding', managersOnly: true },
  adminSettings: { path: '/admin-settings', portal: 'staff', title: 'Admin Settings', managersOnly: true },
  staffProject: { path: '/project/:id', portal: 'staff', title: 'Project', namedByProject: true },
  organization: { path: '/organization/:id', portal: 'staff', title: 'Organization' },
} as const satisfies Record<string, PageDefinition>;

export type PageName = keyof typeof PAGES;

/** The parameters a page's path takes: `{ id }` for `/user/project/:id`, nothing for `/dashboard`. */
type ParamsOf<Path extends string> = Path extends `${string}:${infer Param}/${infer Rest}`
  ? { [K in Param]: string | number } & ParamsOf<`/${Rest}`>
  : Path extends `${string}:${infer Param}`
    ? { [K in Param]: string | number }
    : Record<never, never>;

export type PageParams<Name extends PageName> = ParamsOf<(typeof PAGES)[Name]['path']>;

/** What each parameter may be: ids are digits; link tokens the characters share links use. */
const PARAM_PATTERNS: Record<string, string> = { id: '\\d+', token: '[A-Za-z0-9._-]+' };

function patternOf(path: string): RegExp {
  const source = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([a-z]+)/g, (_, name: string) => `(${PARAM_PATTERNS[name] ?? '[^/]+'})`);
  return new RegExp(`^${source}$`);
}

const MATCHERS = (Object.entries(PAGES) as [PageName, PageDefinition][]).map(([name, page]) => ({ name, page, pattern: patternOf(page.path) }));

/** The path of a page: `pathTo('project', { id: 12 })` is `/user/project/12`. */
export function pathTo<Name extends PageName>(name: Name, ...[params]: keyof PageParams<Name> extends never ? [] : [PageParams<Name>]): string {
  const values = (params ?? {}) as Record<string, string | number>;
  return PAGES[name].path.replace(/:([a-z]+)/g, (_, param: string) => encodeURIComponent(String(values[param])));
}

/** The page a path shows (a trailing slash ignored; no query), or null when none does. */
export function pageAt(rawPath: string): { name: PageName; page: PageDefinition } | null {
  const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
  const found = MATCHERS.find((matcher) => matcher.pattern.test(path));
  return found ? { name: found.name, page: found.page } : null;
}

/** One pattern for all of a portal's pages: the app's router keeps the portal mounted between them. */
export function portalPattern(portal: Portal): RegExp {
  const sources = MATCHERS.filter((matcher) => matcher.page.portal === portal).map((matcher) => matcher.pattern.source.slice(1, -1));
  return new RegExp(`^(?:${sources.join('|')})/?$`);
}
