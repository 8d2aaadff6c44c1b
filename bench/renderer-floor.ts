/**
 * bench/renderer-floor (issue 14, "renderer ≤ Uppy 5's peak memory"): what a page costs in
 * Chromium's renderers at rest, before it uploads anything. Uppy 5's bench page is one file input;
 * the Cutdesk project page is the product, with the two parts the spec asks for: a service worker
 * (an installable app that works offline) and an upload worker that outlives the page (uploads
 * resume after a reload). This measures, in one run, a file input alone, with an idle shared
 * worker, with an idle service worker in control, with both, the smallest React page, and
 * Cutdesk's sign-in and project pages (with the service worker in control, and blocked).
 *
 * The figures are private memory (anonymous resident + swap: Chromium's "private memory
 * footprint"), the most of 10 samples over a second, 2 s after the page settled: the page's own
 * renderer (found by its CPU while the page spins: the figure bench/upload-browser compares),
 * and, apart, any other renderer that runs one of the page's workers (Chromium puts a shared or
 * service worker in the page's renderer or in another, as it sees fit).
 * `npm run bench renderer-floor`; BENCH_ROUNDS (3), BENCH_WEB_DIR (a build; default: dist).
 */
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { chromiumBrowserPid, descendants, memoryOf, rendererBusiedBy, SPIN_300_MS, threadSeconds } from './chromium-procs.ts';
import { buildMinimalReactPage } from './first-paint.ts';
import { startServer } from './first-load.ts';
import { freePort } from './free-port.ts';
import { spread } from './stats.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MiB = 1024 ** 2;
const PASSWORD = 'demo-password';

/** The input pages: `?worker` starts an idle shared worker, `?sw` registers an idle service worker. */
const INPUT_PAGE = `<!doctype html><meta charset="utf-8"><title>input</title><input type="file" id="file"><script>
const flags = new URLSearchParams(location.search);
if (flags.has('worker')) new SharedWorker('/idle-worker.js').port.start();
if (flags.has('sw')) navigator.serviceWorker.register('/idle-sw.js');
</script>`;
const IDLE_WORKER = 'onconnect = (event) => event.ports[0].start();';
// A fetch handler that answers nothing: the page's requests go to the network as without one.
const IDLE_SERVICE_WORKER =
  "self.addEventListener('install', () => self.skipWaiting());\nself.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));\nself.addEventListener('fetch', () => {});";

/** Serves the input pages and the minimal React build (/react.html). */
async function staticPages(reactDir: string): Promise<{ base: string; close(): Promise<void> }> {
  const port = await freePort();
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  const server = createServer((request, response) => {
    void (async () => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      if (path === '/input.html') return response.writeHead(200, { 'content-type': 'text/html' }).end(INPUT_PAGE);
      if (path === '/idle-worker.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(IDLE_WORKER);
      if (path === '/idle-sw.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(IDLE_SERVICE_WORKER);
      // The minimal React build asks for its script at /assets/….
      const file = resolve(reactDir, path === '/react.html' ? 'index.html' : path.slice(1));
      if (path.startsWith('/assets/') || path === '/react.html') {
        if (file.startsWith(reactDir) && existsSync(file))
          return response.writeHead(200, { 'content-type': types[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream' }).end(await readFile(file));
      }
      response.writeHead(404).end();
    })().catch(() => response.writeHead(500).end());
  });
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return { base: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) };
}

interface Variant {
  name: string;
  url: string;
  /** A returning user's page: the service worker installed (from `installUrl`, in a tab of its own), then the page opened under its control. */
  serviceWorker: boolean;
  /** Where the service worker is installed from (default: the page itself); a page that starts no upload worker. */
  installUrl?: string;
  /** Local storage set before the page's scripts run (Cutdesk's session). */
  storage?: Record<string, unknown>;
  /** What shows the page has settled. */
  ready: (page: Page) => Promise<unknown>;
}

const workerThreadsOf = async (pid: number) =>
  [...(await threadSeconds(pid)).keys()].filter((name) => /Worker/.test(name)).map((name) => name.replace(/#\d+$/, '').trim());

interface Figures {
  /** The page's renderer (its workers too, when Chromium puts them there). */
  pageMiB: number;
  /** Other renderers that run one of the page's workers (Chromium's spare renderers and its own pages not counted). */
  workersElsewhereMiB: number;
  /** Worker threads: in the page's renderer, and elsewhere. */
  workers: { inPage: string[]; elsewhere: string[] };
}

/** The page's renderer and the renderers of its workers: private memory, the most of 10 samples over a second. */
async function renderersAtRest(page: Page, browserPid: number): Promise<Figures> {
  // The page's own renderer: the figure bench/upload-browser's renderer figure is about.
  const pagePid = await rendererBusiedBy(browserPid, () => page.evaluate(SPIN_300_MS));
  const others: { pid: number; workers: string[] }[] = [];
  for (const proc of await descendants(browserPid)) {
    if (proc.type !== 'renderer' || proc.pid === pagePid) continue;
    const workers = await workerThreadsOf(proc.pid);
    if (workers.length > 0) others.push({ pid: proc.pid, workers });
  }
  let pageBytes = 0;
  let elsewhereBytes = 0;
  for (let sample = 0; sample < 10; sample += 1) {
    pageBytes = Math.max(pageBytes, (await memoryOf(pagePid)).private);
    elsewhereBytes = Math.max(
      elsewhereBytes,
      (await Promise.all(others.map(async (other) => (await memoryOf(other.pid)).private))).reduce((sum, bytes) => sum + bytes, 0),
    );
    await new Promise((done) => setTimeout(done, 100));
  }
  const inMiB = (bytes: number) => Math.round((bytes / MiB) * 10) / 10;
  return {
    pageMiB: inMiB(pageBytes),
    workersElsewhereMiB: inMiB(elsewhereBytes),
    workers: { inPage: await workerThreadsOf(pagePid), elsewhere: others.flatMap((other) => other.workers) },
  };
}

/** One page in a fresh browser, at rest: its renderer's private memory and its workers' renderers'. */
async function measure(variant: Variant): Promise<Figures> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, serviceWorkers: variant.serviceWorker ? 'allow' : 'block' });
    if (variant.serviceWorker) {
      // A returning user opens the page once, the service worker already installed. It is
      // installed from another tab, closed before the page opens: a reload, or a tab whose
      // process the upload worker keeps alive, would leave the first load's memory in the page's
      // process (about 10 MiB on the project page).
      const installing = await context.newPage();
      await installing.goto(variant.installUrl ?? variant.url);
      await installing.evaluate('navigator.serviceWorker.ready.then(() => true)');
      await installing.close();
    }
    const page = await context.newPage();
    if (variant.storage)
      await page.addInitScript(
        (entries) => Object.entries(entries).forEach(([key, value]) => localStorage.setItem(key, JSON.stringify(value))),
        variant.storage,
      );
    await page.goto(variant.url);
    if (variant.serviceWorker) await page.waitForFunction('navigator.serviceWorker.controller !== null');
    await variant.ready(page);
    await page.waitForTimeout(2_000);
    return await renderersAtRest(page, await chromiumBrowserPid());
  } finally {
    await browser.close();
  }
}

export async function benchRendererFloor(): Promise<Record<string, unknown>> {
  const webDir = resolve(process.env.BENCH_WEB_DIR ?? 'dist');
  const [reactDir, cutdesk] = await Promise.all([buildMinimalReactPage(), startServer(webDir)]);
  const pages = await staticPages(reactDir);
  try {
    const login = (await (
      await fetch(`${cutdesk.base}/api/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@demo.cutdesk.test', password: PASSWORD }),
      })
    ).json()) as { token: string; organizationId: number };
    // A new project, as the upload bench opens one: the page the upload starts from.
    const created = await fetch(`${cutdesk.base}/api/v1/organizations/${login.organizationId}/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${login.token}` },
      body: JSON.stringify({ name: 'Renderer floor', audience: 'Bench', goal: 'Bench', finalVideoLength: '1-2 minutes', brief: 'Renderer floor bench.' }),
    });
    const projectId = ((await created.json()) as { id?: number }).id;
    if (!projectId) throw new Error(`the project was not created (${created.status})`);
    const session = { 'cutdesk.token': login.token, 'cutdesk.orgId': login.organizationId };
    const input = (page: Page) => page.locator('#file').waitFor();
    const variants: Variant[] = [
      { name: 'file input', url: `${pages.base}/input.html`, serviceWorker: false, ready: input },
      { name: 'file input + idle shared worker', url: `${pages.base}/input.html?worker`, serviceWorker: false, ready: input },
      { name: 'file input + idle service worker', url: `${pages.base}/input.html?sw`, serviceWorker: true, ready: input },
      { name: 'file input + both', url: `${pages.base}/input.html?worker&sw`, serviceWorker: true, ready: input },
      { name: 'minimal React page', url: `${pages.base}/react.html`, serviceWorker: false, ready: (page) => page.getByRole('button').waitFor() },
      { name: 'Cutdesk /login', url: `${cutdesk.base}/login`, serviceWorker: true, ready: (page) => page.getByRole('heading').first().waitFor() },
      {
        name: 'Cutdesk project page',
        url: `${cutdesk.base}/user/project/${projectId}`,
        serviceWorker: true,
        installUrl: `${cutdesk.base}/login`,
        storage: session,
        ready: (page) => page.getByTestId('asset-section-INTERVIEW_CLIP').waitFor(),
      },
      {
        name: 'Cutdesk project page, service worker blocked',
        url: `${cutdesk.base}/user/project/${projectId}`,
        serviceWorker: false,
        storage: session,
        ready: (page) => page.getByTestId('asset-section-INTERVIEW_CLIP').waitFor(),
      },
    ];
    const runs = new Map<string, Figures[]>();
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const variant of variants) {
        const figures = await measure(variant);
        runs.set(variant.name, [...(runs.get(variant.name) ?? []), figures]);
        console.error(`round ${round} ${variant.name}: ${JSON.stringify(figures)}`);
      }
    }
    const inputMedian = spread(runs.get('file input')!.map((run) => run.pageMiB))[1]!;
    return {
      note: `private memory at rest, MiB, min / median / max of ${ROUNDS} fresh browsers: the page's renderer (pageOverFileInputMiB = its median − the file input's), and other renderers running the page's workers`,
      pages: Object.fromEntries(
        variants.map(({ name }) => {
          const each = runs.get(name)!;
          const pageMiB = spread(each.map((run) => run.pageMiB));
          return [
            name,
            {
              pageMiB,
              pageOverFileInputMiB: Math.round((pageMiB[1]! - inputMedian) * 10) / 10,
              workersElsewhereMiB: spread(each.map((run) => run.workersElsewhereMiB)),
              workers: each[0]!.workers,
            },
          ];
        }),
      ),
    };
  } finally {
    await pages.close();
    await cutdesk.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchRendererFloor(), null, 2));
