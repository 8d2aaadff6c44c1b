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

/** POSTs JSON to the bench's backend (the pages' own origin) and returns its JSON answer. */
export async function post(path, body) {
  const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}
