import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

/** Resolves the `@/` alias of browser code (src/) for code run in Node outside Vite: the worker modules. */
const src = new URL('../../src/', import.meta.url);
registerHooks({
  resolve(specifier, context, next) {
    return next(specifier.startsWith('@/') ? pathToFileURL(new URL(specifier.slice(2), src).pathname).href : specifier, context);
  },
});
