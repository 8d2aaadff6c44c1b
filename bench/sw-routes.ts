/**
 * bench/sw-routes (issue 14): what the service worker costs a page's API calls, and what its
 * static routes (public/sw-routes.js) take back. A signed-in page controlled by the app's service
 * worker reads `GET /api/v1/me` one call after another; the same build without the routes (the
 * service worker sees every call as a fetch event and lets it pass) and with service workers
 * blocked (the floor) in the same run, each in a fresh Chromium, interleaved. Figures: the
 * median and 90th percentile of a call's time in the page, and the CPU the service worker's
 * renderer spent over the calls.
 * `npm run bench sw-routes`; BENCH_ROUNDS (3), BENCH_CALLS (300), BENCH_WEB_DIR (default: dist).
 */
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { chromiumBrowserPid, cpuSeconds, rendererBusiedBy, SPIN_300_MS } from './chromium-procs.ts';
import { startServer } from './first-load.ts';
import { spread } from './stats.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CALLS = Number(process.env.BENCH_CALLS ?? 300);
const PASSWORD = 'demo-password';

type Variant = 'routes' | 'no routes' | 'no service worker';
const VARIANTS: Variant[] = ['routes', 'no routes', 'no service worker'];
/** Calls per turn. */
const BATCH = 20;

/** A copy of the build whose service worker does not import its routes. */
async function buildWithoutRoutes(webDir: string): Promise<string> {
  const copy = resolve('.tmp/bench-sw-no-routes');
  await rm(copy, { recursive: true, force: true });
  await cp(webDir, copy, { recursive: true });
  const sw = await readFile(`${copy}/sw.js`, 'utf8');
  const without = sw.replace(/importScripts\("sw-routes\.js"\)[,;]?/, '');
  if (without === sw) throw new Error("the build's sw.js does not import sw-routes.js");
  await writeFile(`${copy}/sw.js`, without);
  // The server prefers the precompressed copies: without them it sends the edited file.
  await Promise.all(['sw.js.br', 'sw.js.gz'].map((name) => rm(`${copy}/${name}`, { force: true })));
  return copy;
}

interface Run {
  medianMs: number;
  p90Ms: number;
  serviceWorkerCpuMs: number;
}

/**
 * One round: a fresh Chromium with a signed-in page per variant (a context each), the calls made
 * in batches that take turns, so the machine's noise falls on all three alike.
 */
async function round(bases: Record<Variant, string>): Promise<Record<Variant, Run>> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const pages = new Map<Variant, { page: Page; token: string; serviceWorkerPid: number | null; times: number[] }>();
    for (const variant of VARIANTS) {
      const base = bases[variant];
      const context = await browser.newContext({ serviceWorkers: variant === 'no service worker' ? 'block' : 'allow' });
      const login = (await (
        await fetch(`${base}/api/v1/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'owner@demo.cutdesk.test', password: PASSWORD }),
        })
      ).json()) as { token: string };
      const page = await context.newPage();
      await page.goto(`${base}/login`);
      let serviceWorkerPid: number | null = null;
      if (variant !== 'no service worker') {
        await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
        await page.reload();
        await page.waitForFunction('navigator.serviceWorker.controller !== null');
        const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
        serviceWorkerPid = await rendererBusiedBy(await chromiumBrowserPid(), () => worker.evaluate(SPIN_300_MS));
      }
      pages.set(variant, { page, token: login.token, serviceWorkerPid, times: [] });
    }
    const cpuBefore = new Map(await Promise.all(VARIANTS.map(async (variant) => [variant, await cpuOf(pages.get(variant)!.serviceWorkerPid)] as const)));
    for (let batch = 0; batch < CALLS / BATCH; batch += 1) {
      for (const variant of VARIANTS) {
        const entry = pages.get(variant)!;
        entry.times.push(
          ...(await entry.page.evaluate(
            async ({ calls, token }) => {
              const out: number[] = [];
              for (let i = 0; i < calls; i += 1) {
                const started = performance.now();
                await (await fetch('/api/v1/me', { headers: { authorization: `Bearer ${token}` } })).text();
                out.push(performance.now() - started);
              }
              return out;
            },
            { calls: BATCH, token: entry.token },
          )),
        );
      }
    }
    const out = {} as Record<Variant, Run>;
    for (const variant of VARIANTS) {
      const { times, serviceWorkerPid } = pages.get(variant)!;
      const sorted = [...times].sort((a, b) => a - b);
      out[variant] = {
        medianMs: sorted[Math.floor(sorted.length / 2)]!,
        p90Ms: sorted[Math.floor(sorted.length * 0.9)]!,
        serviceWorkerCpuMs: Math.round(((await cpuOf(serviceWorkerPid)) - cpuBefore.get(variant)!) * 1000),
      };
    }
    return out;
  } finally {
    await browser.close();
  }
}

const cpuOf = async (pid: number | null) => (pid === null ? 0 : cpuSeconds(pid));

export async function benchSwRoutes(): Promise<Record<string, unknown>> {
  const webDir = resolve(process.env.BENCH_WEB_DIR ?? 'dist');
  const withRoutes = await startServer(webDir);
  const withoutRoutes = await startServer(await buildWithoutRoutes(webDir));
  try {
    const bases: Record<Variant, string> = { routes: withRoutes.base, 'no routes': withoutRoutes.base, 'no service worker': withRoutes.base };
    const runs = new Map<Variant, Run[]>();
    for (let number = 1; number <= ROUNDS; number += 1) {
      const figures = await round(bases);
      for (const variant of VARIANTS) runs.set(variant, [...(runs.get(variant) ?? []), figures[variant]]);
      console.error(`round ${number}: ${JSON.stringify(figures)}`);
    }
    const ratio = (a: Variant, b: Variant) => spread(runs.get(a)!.map((run, i) => run.medianMs / runs.get(b)![i]!.medianMs));
    return {
      note: `${CALLS} GET /api/v1/me one after another from a signed-in page in batches of ${BATCH} taking turns; min / median / max of ${ROUNDS} rounds (a fresh Chromium each); ratios per round`,
      variants: Object.fromEntries(
        VARIANTS.map((variant) => [
          variant,
          {
            medianMs: spread(runs.get(variant)!.map((run) => run.medianMs)),
            p90Ms: spread(runs.get(variant)!.map((run) => run.p90Ms)),
            serviceWorkerCpuMs: spread(runs.get(variant)!.map((run) => run.serviceWorkerCpuMs)),
          },
        ]),
      ),
      callTimeRoutesOverNoRoutes: ratio('routes', 'no routes'),
      callTimeRoutesOverNoServiceWorker: ratio('routes', 'no service worker'),
      callTimeNoRoutesOverNoServiceWorker: ratio('no routes', 'no service worker'),
    };
  } finally {
    await withRoutes.stop();
    await withoutRoutes.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchSwRoutes(), null, 2));
