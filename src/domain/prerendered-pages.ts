import { PAGES } from './pages.ts';

/**
 * Issue 34: the pages the build renders into HTML of their own (the app's first screens), and
 * the file each is kept in beside index.html. The server sends that file for the page's exact
 * path with no query; the browser hydrates it (src/app/main.tsx). Any other request of the page
 * gets index.html and is rendered in the browser, as every other page is.
 */
export const PRERENDERED_PAGES: readonly { path: string; file: string }[] = [
  { path: PAGES.staffSignIn.path, file: 'prerendered/login.html' },
  { path: PAGES.customerSignIn.path, file: 'prerendered/login-user.html' },
];

/**
 * The one script a prerendered page adds to the app's (public/prerendered/): it holds a form
 * sent before the app has taken the page over, which src/app/hydration.ts sends then.
 */
export const HOLD_EARLY_SUBMIT_SCRIPT = '/prerendered/hold-early-submit.js';
