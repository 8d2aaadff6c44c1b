import { renderToString } from 'react-dom/server';
import { App } from './app.tsx';
import { documentTitle, pageNameFor } from './page-titles.ts';

/**
 * Issue 34, the form on screen: a sign-in page rendered into HTML at build time
 * (scripts/prerender-plugin.ts), signed out, on a desktop window. The browser paints the form
 * from the HTML alone and hydrates it once the app's script has run (main.tsx).
 */
export function renderPage(path: string): string {
  return renderToString(<App ssrPath={path} />);
}

/** The window title the app gives the page (use-document-title.ts), so the tab reads right before the script runs. */
export function titleOf(path: string): string {
  return documentTitle(pageNameFor(path, null));
}
