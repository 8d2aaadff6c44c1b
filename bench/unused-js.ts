/**
 * bench/unused-js (issue 34, "sign-in page: unused JS on /login ≤ 20 %"): how much of the
 * JavaScript `/login` loads has not run once the sign-in form is on screen, against the smallest
 * React page there is (bench/first-paint's: one button rendered by React DOM, built by the same
 * Vite) in the same run: the share that React alone leaves unused is the floor of any React page.
 *
 * Measured as Lighthouse measures "unused JavaScript": Chromium's precise coverage at function
 * granularity (`Profiler.startPreciseCoverage`, `detailed: false`), taken once the page's own
 * content is on screen and the network is idle; a byte is unused when the innermost function
 * around it never ran. Every same-origin script of the page counts (module chunks included).
 * Each page is opened BENCH_ROUNDS times (default 3), alternating, each in a fresh context (cold
 * cache, service worker blocked). Serves `dist/` (or FIRST_LOAD_DIR): build first.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { startServer } from './first-load.ts';
import { buildMinimalReactPage } from './first-paint.ts';
import { spread } from './stats.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface Range {
  startOffset: number;
  endOffset: number;
  count: number;
}

/** Bytes of `length` inside a function that never ran: the innermost range around each byte decides. */
export function unusedBytes(length: number, ranges: Range[]): number {
  const ran = new Uint8Array(length).fill(1);
  // Outer ranges first (earlier start, then longer), so an inner range overrides its function's.
  for (const range of [...ranges].sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset))
    ran.fill(range.count > 0 ? 1 : 0, range.startOffset, Math.min(range.endOffset, length));
  let unused = 0;
  for (const byte of ran) if (byte === 0) unused++;
  return unused;
}

interface Coverage {
  /** Per script: its name, size and unused bytes. */
  scripts: { name: string; bytes: number; unused: number }[];
  share: number;
}

async function coverageOf(browser: Browser, url: string, ready: string): Promise<Coverage> {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Debugger.enable');
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.startPreciseCoverage', { callCount: false, detailed: false });
    const origin = new URL(url).origin;
    const sources = new Map<string, { url: string; length: number }>();
    cdp.on('Debugger.scriptParsed', (script) => {
      if (script.url.startsWith(origin)) sources.set(script.scriptId, { url: script.url, length: script.length ?? 0 });
    });
    await page.goto(url);
    await page.locator(ready).first().waitFor();
    await page.waitForLoadState('networkidle');
    const { result } = await cdp.send('Profiler.takePreciseCoverage');
    const scripts = result
      .filter((script) => sources.has(script.scriptId))
      .map((script) => {
        const { url: scriptUrl, length } = sources.get(script.scriptId)!;
        return {
          name: new URL(scriptUrl).pathname,
          bytes: length,
          unused: unusedBytes(
            length,
            script.functions.flatMap((fn) => fn.ranges),
          ),
        };
      });
    const bytes = scripts.reduce((sum, script) => sum + script.bytes, 0);
    const unused = scripts.reduce((sum, script) => sum + script.unused, 0);
    return { scripts, share: unused / Math.max(bytes, 1) };
  } finally {
    await context.close();
  }
}

export async function benchUnusedJs(): Promise<Record<string, unknown>> {
  const webDir = resolve(process.env.FIRST_LOAD_DIR ?? 'dist');
  if (!existsSync(webDir)) throw new Error(`${webDir} does not exist: run \`npm run build\` first`);
  const minimalDir = await buildMinimalReactPage();
  const app = await startServer(webDir);
  const minimal = await startServer(minimalDir);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const login: Coverage[] = [];
    const react: Coverage[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      login.push(await coverageOf(browser, `${app.base}/login`, 'h1:text("Sign in")'));
      react.push(await coverageOf(browser, `${minimal.base}/`, 'button'));
    }
    const percent = (runs: Coverage[]) => spread(runs.map((run) => run.share * 100)).join(' / ');
    const perScript = (run: Coverage) =>
      Object.fromEntries(run.scripts.map((script) => [script.name, `${(script.unused / 1000).toFixed(1)} of ${(script.bytes / 1000).toFixed(1)} KB unused`]));
    return {
      rounds: ROUNDS,
      '/login: unused JS, % of its bytes (min / median / max)': percent(login),
      'minimal React page: unused JS, %': percent(react),
      '/login ÷ minimal React page, per round': spread(login.map((run, index) => run.share / react[index]!.share)).join(' / '),
      '/login, per script (last round)': perScript(login.at(-1)!),
      'minimal React page, per script (last round)': perScript(react.at(-1)!),
    };
  } finally {
    await browser.close();
    await app.stop();
    await minimal.stop();
  }
}
