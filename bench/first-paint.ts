/**
 * bench/first-paint (issue 14, "first contentful paint ≤ 1.3× the minimal React page in the same
 * run"): how soon `/login` paints, against the smallest React page there is — a button rendered
 * with React DOM, built by the same Vite and served by the same server (precompressed like the
 * app) — in one run. Each page is opened N times (BENCH_PAINT_RUNS, default 7) in a fresh context
 * (cold cache, service worker blocked), alternating, on loopback and over an emulated broadband
 * link (20 Mbit/s down, 5 up, 40 ms round trip). Two figures each: the first contentful paint
 * (for /login, the boot splash of index.html), and when the page's own content is on screen
 * (the sign-in heading; the minimal page's button), so the splash cannot hide a slow app.
 * Medians and the ratios /login ÷ minimal.
 *
 * "On screen" is the frame that painted the element, from the browser's Element Timing API (an
 * `elementtiming` attribute set the moment the element is inserted, before it can paint). Until
 * stop 46 it was when Playwright's `waitForSelector` noticed the element, which polls on the
 * page's animation frames and a DevTools round trip: it came 80–350 ms after the paint, more on
 * the busier page, and so measured the harness as much as the page.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { build } from 'vite';
import { compressBuild } from '../scripts/compress-build.ts';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { startServer } from './first-load.ts';

const RUNS = Number(process.env.BENCH_PAINT_RUNS ?? 7);
const MINIMAL_SOURCE = resolve('.tmp/bench-minimal-react-src');
const MINIMAL_BUILD = resolve('.tmp/bench-minimal-react');

/** The minimal React page: one root, one element, nothing else. */
export async function buildMinimalReactPage(): Promise<string> {
  await rm(MINIMAL_SOURCE, { recursive: true, force: true });
  await mkdir(MINIMAL_SOURCE, { recursive: true });
  await writeFile(
    join(MINIMAL_SOURCE, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Minimal</title></head><body><div id="root"></div><script type="module" src="/main.js"></script></body></html>',
  );
  await writeFile(
    join(MINIMAL_SOURCE, 'main.js'),
    "import { createElement } from 'react';\nimport { createRoot } from 'react-dom/client';\ncreateRoot(document.getElementById('root')).render(createElement('button', null, 'Sign in'));\n",
  );
  await build({ root: MINIMAL_SOURCE, logLevel: 'warn', configFile: false, resolve: { alias: {} }, build: { outDir: MINIMAL_BUILD, emptyOutDir: true } });
  await compressBuild(MINIMAL_BUILD);
  return MINIMAL_BUILD;
}

type Link = 'loopback' | 'broadband';

/** First contentful paint, and when the page's own content (`ready`, a selector) is on screen. */
async function firstPaint(browser: Browser, url: string, link: Link, ready: string): Promise<{ fcp: number; content: number }> {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1440, height: 900 } });
  // Marks the page's own content for Element Timing as it is inserted (a mutation observer's
  // callback runs before the next paint), so its entry is the frame that first showed it.
  // (A string: this Node project's typings have no DOM.)
  const selector = JSON.stringify(ready.replace(/:text\(.*\)$/, ''));
  await context.addInitScript({
    content: `const mark = new MutationObserver(() => {
      const found = document.querySelector(${selector});
      if (!found) return;
      found.setAttribute('elementtiming', 'content');
      mark.disconnect();
    });
    mark.observe(document, { subtree: true, childList: true });`,
  });
  try {
    const page = await context.newPage();
    if (link === 'broadband') {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 40, downloadThroughput: 20_000_000 / 8, uploadThroughput: 5_000_000 / 8 });
    }
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForSelector(ready, { state: 'visible' });
    const content = await page.evaluate(
      () =>
        new Promise<number>((done) => {
          new PerformanceObserver((list) => {
            // 'element' entries (Element Timing) are not in this Node project's DOM typings.
            const painted = list.getEntries()[0] as unknown as { renderTime: number } | undefined;
            if (painted) done(painted.renderTime);
          }).observe({ type: 'element', buffered: true } as never);
        }),
    );
    const fcp = await page.evaluate(
      () =>
        new Promise<number>((done) => {
          new PerformanceObserver((list) => {
            const paint = list.getEntries().find((entry) => entry.name === 'first-contentful-paint');
            if (paint) done(paint.startTime);
            // 'paint' is a browser entry type the DOM typings of this (Node) project do not list.
          }).observe({ type: 'paint', buffered: true } as never);
        }),
    );
    return { fcp, content };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function benchFirstPaint(): Promise<Record<string, unknown>> {
  const app = resolve(process.env.FIRST_LOAD_DIR ?? 'dist');
  const minimal = await buildMinimalReactPage();
  const servers = { app: await startServer(app), minimal: await startServer(minimal) };
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const results: Record<string, unknown> = { runs: RUNS };
    for (const link of ['loopback', 'broadband'] as const) {
      const runs = {
        login: [] as { fcp: number; content: number }[],
        shell: [] as { fcp: number; content: number }[],
        minimal: [] as { fcp: number; content: number }[],
      };
      for (let run = 0; run < RUNS; run++) {
        runs.minimal.push(await firstPaint(browser, `${servers.minimal.base}/`, link, 'button'));
        runs.login.push(await firstPaint(browser, `${servers.app.base}/login`, link, 'h1:text("Sign in")'));
        // Any query gets the shell (index.html) and the page rendered in the browser, as before
        // issue 34's prerendering: the same build and server, for a before/after in one run.
        runs.shell.push(await firstPaint(browser, `${servers.app.base}/login?rendered=in-the-browser`, link, 'h1:text("Sign in")'));
      }
      const of = (page: keyof typeof runs, figure: 'fcp' | 'content') => median(runs[page].map((one) => one[figure]));
      results[link] = {
        'minimal React page: first paint / its button on screen, median ms': [Math.round(of('minimal', 'fcp')), Math.round(of('minimal', 'content'))],
        '/login (prerendered): first paint / the sign-in form on screen, median ms': [Math.round(of('login', 'fcp')), Math.round(of('login', 'content'))],
        '/login rendered in the browser (the shell): first paint / the form on screen, median ms': [
          Math.round(of('shell', 'fcp')),
          Math.round(of('shell', 'content')),
        ],
        'first paint, ratio /login ÷ minimal (goal ≤ 1.3)': (of('login', 'fcp') / of('minimal', 'fcp')).toFixed(2),
        'the form on screen, ratio /login ÷ minimal (goal ≤ 1.1)': (of('login', 'content') / of('minimal', 'content')).toFixed(2),
        'the form on screen, ratio the shell ÷ minimal': (of('shell', 'content') / of('minimal', 'content')).toFixed(2),
      };
    }
    return results;
  } finally {
    await browser.close();
    await servers.app.stop();
    await servers.minimal.stop();
  }
}

if (import.meta.main) console.log(JSON.stringify(await benchFirstPaint(), null, 2));
