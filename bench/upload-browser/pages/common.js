/**
 * Benchmark pages of bench/upload-browser.ts (browser code, bundled by Vite into .tmp): the
 * configuration the bench serves with the page, and how a page reports back (a Playwright
 * binding). Nothing here is part of the product.
 */
export const config = /** @type {any} */ (window).BENCH;

/** @param {Record<string, unknown>} event */
export function report(event) {
  /** @type {any} */ (window).benchEvent(event);
}

/** Calls `start` with the file the bench puts into the page's one file input (setInputFiles). */
export function onFile(start) {
  const input = /** @type {HTMLInputElement} */ (document.getElementById('file'));
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file) Promise.resolve(start(file)).catch((error) => report({ type: 'error', message: String(error?.stack ?? error) }));
  });
}
