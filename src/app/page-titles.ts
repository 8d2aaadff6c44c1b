/**
 * The document title of every page (issue 12 "installed app"): the installed app's window, the
 * task switcher and the browser history show "<Page> · Cutdesk". One table by route pattern, so
 * the feature pages set nothing; project pages show the project's name once it has loaded.
 */

export const APP_NAME = 'Cutdesk';

/** First match wins; patterns see the path without a trailing slash. */
const TITLES: readonly (readonly [RegExp, string])[] = [
  [/^\/login(?:\/user)?$/, 'Sign in'],
  [/^\/register$/, 'Create your account'],
  [/^\/recover-password$/, 'Reset your password'],
  [/^\/change-password$/, 'Choose a new password'],
  [/^\/not-mobile$/, 'Open Cutdesk on a desktop'],
  [/^\/help$/, 'Help'],
  [/^\/review\//, 'Review'],
  [/^\/pricing$/, 'Pricing'],
  [/^\/404$/, 'Page not found'],
  [/^\/user\/projects$/, 'Projects'],
  [/^\/user\/create-project$/, 'New project'],
  [/^\/user\/content-library$/, 'Content Library'],
  [/^\/(?:user\/)?admin-settings$/, 'Admin Settings'],
  [/^\/dashboard$/, 'Dashboard'],
  [/^\/customers$/, 'Customers'],
  [/^\/editors$/, 'Editors'],
  [/^\/onboarding$/, 'Onboarding'],
  [/^\/organization\/\d+$/, 'Organization'],
];

/** Customer and staff project pages: their title is the project's name. */
const PROJECT_PAGE = /^\/(?:user\/)?project\/\d+$/;

/**
 * The page name for `path`, or null for a path that only redirects (the guard sends it on, and
 * the page it lands on names itself). `projectName` is the name the project page put in the top
 * bar; until it loads a project page is "Project".
 */
export function pageNameFor(path: string, projectName: string | null): string | null {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  if (PROJECT_PAGE.test(clean)) return projectName?.trim() || 'Project';
  return TITLES.find(([pattern]) => pattern.test(clean))?.[1] ?? null;
}

/** "Projects · Cutdesk"; the app's name alone when the page has none. */
export function documentTitle(pageName: string | null): string {
  return pageName ? `${pageName} · ${APP_NAME}` : APP_NAME;
}
