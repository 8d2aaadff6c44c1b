import { fileURLToPath } from 'node:url';
import { createServer, type Plugin } from 'vite';
import { HOLD_EARLY_SUBMIT_SCRIPT, PRERENDERED_PAGES } from '../src/domain/prerendered-pages.ts';
import { escapeHtml } from '../src/domain/html-text.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What src/app/prerender.tsx exports (a web module: this Node project does not type-check it). */
interface PrerenderModule {
  renderPage(path: string): string;
  titleOf(path: string): string;
}

/** The page's markup in index.html's root (in place of the boot splash), and its style sheet inlined. */
export function prerenderedHtml(index: string, styles: Map<string, string>, page: { path: string; title: string; markup: string }): string {
  const { path, title, markup } = page;
  const root = /<div id="root">[\s\S]*?<\/div>\s*<\/div>/;
  if (!root.test(index)) throw new Error('index.html has no <div id="root"> with the boot splash to replace');
  const withMarkup = index
    .replace(root, () => `<div id="root" data-prerendered="${escapeHtml(path)}">${markup}</div>`)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`)
    // Async: it never holds the first paint, and a few hundred bytes arrive long before the app.
    .replace('</head>', () => `  <script async src="${HOLD_EARLY_SUBMIT_SCRIPT}"></script>\n  </head>`);
  // A linked style sheet holds the first paint until it has arrived; inlined, the HTML alone
  // paints the form. The app's later pages use the same rules, already in the document.
  return withMarkup.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (link, file: string) => {
    const css = styles.get(file);
    return css === undefined ? link : `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`;
  });
}

/**
 * Issue 34, the sign-in form on screen as soon as the HTML is: renders PRERENDERED_PAGES with
 * the app's own components (src/app/prerender.tsx, loaded by Vite for Node) into copies of the
 * built index.html, with the app's style sheet inlined. Runs after the HTML is emitted.
 */
export function prerenderPages(): Plugin {
  return {
    name: 'cutdesk:prerender-pages',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const index = bundle['index.html'];
        if (index?.type !== 'asset') return;
        const styles = new Map<string, string>();
        for (const output of Object.values(bundle))
          if (output.type === 'asset' && output.fileName.endsWith('.css')) styles.set(output.fileName, String(output.source));
        const vite = await createServer({
          configFile: false,
          root: ROOT,
          logLevel: 'warn',
          resolve: { alias: { '@': `${ROOT}src` } },
          appType: 'custom',
          server: { middlewareMode: true, hmr: false, ws: false, watch: null },
          optimizeDeps: { noDiscovery: true, include: [] },
          // Packages Node cannot import by name as the browser bundle does (CommonJS ones) go through Vite.
          ssr: { noExternal: ['workbox-window'] },
        });
        try {
          const { renderPage, titleOf } = (await vite.ssrLoadModule('/src/app/prerender.tsx')) as PrerenderModule;
          for (const { path, file } of PRERENDERED_PAGES) {
            const html = prerenderedHtml(String(index.source), styles, { path, title: titleOf(path), markup: renderPage(path) });
            this.emitFile({ type: 'asset', fileName: file, source: html });
          }
        } finally {
          await vite.close();
        }
      },
    },
  };
}
