/**
 * bench/first-load (issue 12 "First load"): what `/login` and `/user/projects` download on a cold
 * cache, in Chromium against the real server, and what the service worker precaches.
 *
 * It builds nothing: it serves the built app in `dist/` (or FIRST_LOAD_DIR) and, when
 * FIRST_LOAD_BASELINE names another build (e.g. one made from an older commit with
 * `npx vite build --outDir .tmp/first-load-before`), that one too in the same run, and answers
 * the ratios current / baseline. Each build gets a server of its own (child process, fresh data
 * directory, demo data). Every JS and CSS response of the page is recorded (the service worker
 * is blocked, so its precaching does not count as the page's load) and gzipped here with zlib
 * level 9, so that figure does not depend on how the server compresses; beside it, what the
 * server really sent (body bytes as encoded on the wire, and every response of the load with
 * its headers), which is where compression shows (issue 14).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { freePort } from './free-port.ts';

const EMAIL = 'owner@demo.cutdesk.test';
const PASSWORD = 'demo-password';
/** The goal of issue 12: at most 120 KB of gzipped JavaScript for /login. */
const LOGIN_JS_GOAL = 120_000;

interface Asset {
  path: string;
  kind: 'js' | 'css';
  bytes: number;
  gzip: number;
  /** Body bytes as the server sent them (compressed when it compresses). */
  wire: number;
}

interface PageLoad {
  assets: Asset[];
  js: { files: number; bytes: number; gzip: number; wire: number };
  css: { files: number; bytes: number; gzip: number; wire: number };
  /** Every same-origin response of the load (HTML, JS, CSS, JSON, fonts…), headers and bodies as sent. */
  wireTotal: number;
}

interface BuildFigures {
  dir: string;
  login: PageLoad;
  projects: PageLoad;
  precache: { entries: number; bytes: number; wire: number };
}

export async function startServer(webDir: string): Promise<{ base: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'cutdesk-bench-first-load-'));
  const child: ChildProcess = spawn(process.execPath, ['server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      WEB_DIR: webDir,
      DEMO_PASSWORD: PASSWORD,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_EMAIL: '1000',
      RATE_LIMIT_PER_IP: '100000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://localhost:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const ok = await fetch(`${base}/api/v1/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the server for ${webDir} did not start`);
    await new Promise((done) => setTimeout(done, 250));
  }
  return {
    base,
    stop: async () => {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function summarize(assets: Asset[], wireTotal: number): PageLoad {
  const sum = (kind: Asset['kind']) => {
    const of = assets.filter((asset) => asset.kind === kind);
    return { files: of.length, bytes: of.reduce((n, a) => n + a.bytes, 0), gzip: of.reduce((n, a) => n + a.gzip, 0), wire: of.reduce((n, a) => n + a.wire, 0) };
  };
  return { assets: assets.sort((a, b) => b.gzip - a.gzip), js: sum('js'), css: sum('css'), wireTotal };
}

/** Opens `path` in a fresh context (cold HTTP cache, no service worker) and records every JS and CSS response. */
async function coldLoad(browser: Browser, base: string, path: string, storageState?: Awaited<ReturnType<BrowserContext['storageState']>>): Promise<PageLoad> {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1440, height: 900 }, storageState });
  const pending: Promise<Asset | null>[] = [];
  const sent: Promise<number>[] = [];
  context.on('response', (response) => {
    const url = new URL(response.url());
    if (url.origin !== base) return;
    const sizes = response.request().sizes();
    sent.push(
      sizes.then(
        (s) => s.responseBodySize + s.responseHeadersSize,
        () => 0,
      ),
    );
    const kind = url.pathname.endsWith('.js') ? 'js' : url.pathname.endsWith('.css') ? 'css' : null;
    if (!kind || response.status() !== 200) return;
    pending.push(
      Promise.all([response.body(), sizes]).then(
        ([body, s]) => ({ path: url.pathname, kind, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length, wire: s.responseBodySize }),
        () => null,
      ),
    );
  });
  const page = await context.newPage();
  await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
  // The page has settled (the portal and its page chunks loaded, the upload worker started).
  await page.waitForTimeout(1_000);
  const assets = (await Promise.all(pending)).filter((asset): asset is Asset => asset !== null);
  const wireTotal = (await Promise.all(sent)).reduce((n, bytes) => n + bytes, 0);
  await context.close();
  // A chunk asked for twice (a worker and the page) counts once.
  return summarize([...new Map(assets.map((asset) => [asset.path, asset])).values()], wireTotal);
}

async function signedInState(browser: Browser, base: string) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(`${base}/login/user`);
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/user\/projects$/);
  const state = await context.storageState();
  await context.close();
  return state;
}

/**
 * The service worker's precache list, read from the built sw.js: the bytes of its files, and
 * what fetching them sends when the build holds brotli copies (scripts/compress-build.ts).
 */
async function precache(webDir: string): Promise<{ entries: number; bytes: number; wire: number }> {
  const sw = await readFile(join(webDir, 'sw.js'), 'utf8');
  const urls = [...new Set([...sw.matchAll(/url:"([^"]+)"/g)].map((match) => match[1]!))];
  let bytes = 0;
  let wire = 0;
  for (const url of urls) {
    const file = join(webDir, url.replace(/^\//, ''));
    const size = (await stat(file)).size;
    bytes += size;
    wire += existsSync(`${file}.br`) ? (await stat(`${file}.br`)).size : size;
  }
  return { entries: urls.length, bytes, wire };
}

async function measure(browser: Browser, webDir: string): Promise<BuildFigures> {
  const server = await startServer(webDir);
  try {
    const login = await coldLoad(browser, server.base, '/login');
    const projects = await coldLoad(browser, server.base, '/user/projects', await signedInState(browser, server.base));
    return { dir: webDir, login, projects, precache: await precache(webDir) };
  } finally {
    await server.stop();
  }
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const ratio = (now: number, before: number) => (before ? (now / before).toFixed(2) : '—');

function figures(build: BuildFigures) {
  const page = (load: PageLoad) => ({
    'JS files': load.js.files,
    'JS bytes': load.js.bytes,
    'JS gzip': load.js.gzip,
    'JS on the wire': load.js.wire,
    'CSS bytes': load.css.bytes,
    'CSS gzip': load.css.gzip,
    'CSS on the wire': load.css.wire,
    'all bytes on the wire': load.wireTotal,
    'largest (gzip)': load.assets.slice(0, 6).map((asset) => `${asset.path.replace('/assets/', '')} ${kb(asset.gzip)}`),
  });
  return { dir: build.dir, '/login': page(build.login), '/user/projects': page(build.projects), precache: build.precache };
}

export async function benchFirstLoad(): Promise<Record<string, unknown>> {
  const current = resolve(process.env.FIRST_LOAD_DIR ?? 'dist');
  const baseline = process.env.FIRST_LOAD_BASELINE ? resolve(process.env.FIRST_LOAD_BASELINE) : null;
  for (const dir of [current, baseline])
    if (dir && !existsSync(join(dir, 'index.html'))) throw new Error(`no built app in ${dir}: run npm run build (this bench builds nothing)`);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const now = await measure(browser, current);
    const results: Record<string, unknown> = {
      current: figures(now),
      goal: `/login JS ${kb(now.login.js.gzip)} gzip of at most ${kb(LOGIN_JS_GOAL)}: ${now.login.js.gzip <= LOGIN_JS_GOAL ? 'met' : 'NOT met'}`,
    };
    if (baseline) {
      const before = await measure(browser, baseline);
      results.baseline = figures(before);
      results['ratio current / baseline'] = {
        '/login JS gzip': ratio(now.login.js.gzip, before.login.js.gzip),
        '/login JS on the wire': ratio(now.login.js.wire, before.login.js.wire),
        '/login all bytes on the wire': ratio(now.login.wireTotal, before.login.wireTotal),
        '/user/projects all bytes on the wire': ratio(now.projects.wireTotal, before.projects.wireTotal),
        '/login JS+CSS gzip': ratio(now.login.js.gzip + now.login.css.gzip, before.login.js.gzip + before.login.css.gzip),
        '/user/projects JS gzip': ratio(now.projects.js.gzip, before.projects.js.gzip),
        '/user/projects JS+CSS gzip': ratio(now.projects.js.gzip + now.projects.css.gzip, before.projects.js.gzip + before.projects.css.gzip),
        'precache bytes': ratio(now.precache.bytes, before.precache.bytes),
        'precache on the wire': ratio(now.precache.wire, before.precache.wire),
      };
    }
    return results;
  } finally {
    await browser.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchFirstLoad(), null, 2));
