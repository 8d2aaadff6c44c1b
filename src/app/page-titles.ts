/**
 * The document title of every page (issue 12 "installed app"): the installed app's window, the
 * task switcher and the browser history show "<Page> · Cutdesk". The titles are the route
 * table's (src/domain/pages.ts), so the feature pages set nothing; project pages show the
 * project's name once it has loaded.
 */
import { pageAt } from '@/domain/pages.ts';

export const APP_NAME = 'Cutdesk';

/**
 * The page name for `path`, or null for a path that only redirects (the guard sends it on, and
 * the page it lands on names itself). `projectName` is the name the project page put in the top
 * bar; until it loads a project page is "Project".
 */
export function pageNameFor(path: string, projectName: string | null): string | null {
  const page = pageAt(path)?.page;
  if (!page) return null;
  return page.namedByProject ? projectName?.trim() || page.title : page.title;
}

/** "Projects · Cutdesk"; the app's name alone when the page has none. */
export function documentTitle(pageName: string | null): string {
  return pageName ? `${pageName} · ${APP_NAME}` : APP_NAME;
}
