import { spawn, type ChildProcess } from 'node:child_process';
import { cp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { chromium, expect, test, type Page } from '@playwright/test';
import { E2E_SERVER_ENV } from './server-env.ts';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { MP4_FTYP, pngBytes } from '../tests/support/file-fixtures.ts';
import { storeSession } from './sign-in.ts';
import { HOLD_EARLY_SUBMIT_SCRIPT } from '../src/domain/prerendered-pages.ts';
import { networkConditions } from './upload-network.ts';

// The service worker and the upload worker's own scope are what this file tests.
test.use({ serviceWorkers: 'allow' });

/**
 * The installed app (issue 12): lazy portals (a customer never downloads the staff pages), the
 * manifest passing Chromium's installability check, and the update prompt with a second build.
 */

const WEB_DIR = resolve(process.env.WEB_DIR ?? 'dist');

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  /** Files the chunk refers to by URL (the workers). */
  assets?: string[];
}
type BuildManifest = Record<string, ManifestChunk>;

async function buildManifest(): Promise<BuildManifest> {
  return JSON.parse(await readFile(`${WEB_DIR}/.vite/manifest.json`, 'utf8')) as BuildManifest;
}

/** The built upload worker (`assets/upload.worker-<hash>.js`), from the build's manifest. */
async function uploadWorkerFile(): Promise<string> {
  const file = Object.values(await buildManifest())
    .flatMap((chunk) => chunk.assets ?? [])
    .find((asset) => /^assets\/upload\.worker-[\w-]+\.js$/.test(asset));
  if (!file) throw new Error('the build has no upload worker');
  return file;
}

/** Files reachable from `roots` through static (and, with `dynamic`, lazy) imports, never entering `stop`. */
function reachable(manifest: BuildManifest, roots: string[], dynamic: boolean, stop = new Set<string>()): Set<string> {
  const seen = new Set<string>();
  const files = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || stop.has(key) || !manifest[key]) return;
    seen.add(key);
    files.add(`/${manifest[key].file}`);
    for (const next of manifest[key].imports ?? []) visit(next);
    if (dynamic) for (const next of manifest[key].dynamicImports ?? []) visit(next);
  };
  roots.forEach(visit);
  return files;
}

function recordScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('.js')) scripts.push(url.pathname);
  });
  return scripts;
}

test.describe('lazy chunks', () => {
  // The page's own downloads: the service worker (which precaches every chunk in the background
  // for offline use) is kept out of this measurement.
  test.use({ serviceWorkers: 'block' });

  test('/login loads only the start chunks: no portal, no jsPDF, hls.js, Stripe or upload signer', async ({ page }) => {
    const manifest = await buildManifest();
    const entries = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
    const start = reachable(manifest, entries, false);
    const scripts = recordScripts(page);
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(0);
    // The prerendered page's own script (issue 34) is no chunk: the rest are the start chunks.
    expect(scripts).toContain(HOLD_EARLY_SUBMIT_SCRIPT);
    expect(scripts.filter((script) => !start.has(script) && script !== HOLD_EARLY_SUBMIT_SCRIPT)).toEqual([]);
    expect(scripts.join(' ')).not.toMatch(/portal|hls|\.worker-|jspdf|html2canvas|purify|canvg|stripe/i);
  });

  test('a customer opens the board and a project without downloading any chunk of the staff portal', async ({ page }) => {
    const manifest = await buildManifest();
    const staffPortal = 'src/app/staff-portal.tsx';
    const customerPortal = 'src/app/customer-portal.tsx';
    expect(manifest[staffPortal], 'the staff portal is a chunk of its own').toBeDefined();
    const entries = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
    // Everything the app can reach without going through the staff portal; the rest is staff only.
    const outsideStaff = reachable(manifest, entries, true, new Set([staffPortal]));
    const staffOnly = [...reachable(manifest, [staffPortal], true)].filter((file) => !outsideStaff.has(file));
    expect(staffOnly).toContain(`/${manifest[staffPortal]!.file}`);
    expect(staffOnly).toContain(`/${manifest['src/features/admin-project/admin-project-page.tsx']!.file}`);

    const scripts = recordScripts(page);
    await page.goto('/login/user');
    await page.getByLabel('E-mail').fill('owner@demo.cutdesk.test');
    await page.getByLabel('Password').fill('demo-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/user\/projects$/);
    await expect(page.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible();
    await page.getByRole('link', { name: 'Brand anthem' }).first().click();
    await expect(page).toHaveURL(/\/user\/project\/\d+$/);
    await expect(page.getByTestId('status-banner')).toBeVisible();
    await page.waitForLoadState('networkidle');

    expect(scripts).toContain(`/${manifest[customerPortal]!.file}`);
    expect(scripts).toContain(`/${manifest['src/features/project/project-page.tsx']!.file}`);
    expect(scripts.filter((script) => staffOnly.includes(script))).toEqual([]);
  });
});

test('the sign-in page arrives compressed: brotli for every script and style, the page itself too', async ({ page }) => {
  const sent: { path: string; encoding: string | undefined; wire: number }[] = [];
  const pending: Promise<void>[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (!/\.(js|css)$/.test(url.pathname) && url.pathname !== '/login') return;
    pending.push(
      (async () => {
        const sizes = await response.request().sizes();
        sent.push({ path: url.pathname, encoding: (await response.allHeaders())['content-encoding'], wire: sizes.responseBodySize });
      })(),
    );
  });
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  const scripts = sent.filter((response) => response.path.endsWith('.js'));
  expect(scripts.length).toBeGreaterThan(0);
  // The tiny runtime chunk is below the size worth compressing; everything else goes as brotli.
  expect(sent.filter((response) => response.wire >= 1024 && response.encoding !== 'br')).toEqual([]);
  // Issue 14's goal: at most 120 KB of JavaScript on the wire for /login.
  expect(scripts.reduce((total, response) => total + response.wire, 0)).toBeLessThanOrEqual(120_000);
});

test('the first visit precaches the app shell only: the player, the media worker and jsPDF come when first used', async () => {
  const sw = await readFile(`${WEB_DIR}/sw.js`, 'utf8');
  const urls = [...new Set([...sw.matchAll(/url:"([^"]+)"/g)].map((match) => match[1]!))];
  expect(urls).toContain('index.html');
  expect(urls.filter((url) => /hls-|media\.worker-|_jspdf-unused_/.test(url))).toEqual([]);
  // They are cached on first use by the runtime rule for hashed assets.
  expect(sw).toContain('cutdesk-assets-on-use');
  // Issue 14's goal: at most 400 KiB fetched for the precache (brotli copies, as the server sends them).
  let wire = 0;
  for (const url of urls) wire += (await stat(`${WEB_DIR}/${url}.br`).catch(() => stat(`${WEB_DIR}/${url}`))).size;
  expect(wire).toBeLessThanOrEqual(400 * 1024);
});

test('the service worker stays out of what it never answers: API calls and uploads go straight to the network, built files come from its cache', async ({
  page,
  context,
}) => {
  await page.goto('/login');
  await page.evaluate(async () => void (await navigator.serviceWorker.ready));
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  type Routed = { fromServiceWorker: boolean; serviceWorkerRouterInfo?: { matchedSourceType?: string } };
  const methods = new Map<string, string>();
  const seen = new Map<string, Routed>();
  cdp.on('Network.requestWillBeSent', ({ requestId, request }) => methods.set(requestId, request.method));
  cdp.on('Network.responseReceived', ({ requestId, response }) => seen.set(`${methods.get(requestId)} ${new URL(response.url).pathname}`, response as Routed));
  const chunk = (await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname))).find((path) =>
    /^\/assets\/.*\.js$/.test(path),
  )!;
  await page.evaluate(async (asset) => {
    await fetch('/api/v1/health');
    await fetch('/api/v1/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await fetch('/s3/cutdesk-media/nothing', { method: 'PUT', body: 'x' });
    await fetch(asset);
  }, chunk);
  // Each response is reported by its own event, which may come after the page's fetch resolved:
  // wait for all four (the page's own requests count in `seen` too, so its size says nothing).
  const network = ['GET /api/v1/health', 'POST /api/v1/login', 'PUT /s3/cutdesk-media/nothing'];
  await expect.poll(() => [...network, `GET ${chunk}`].filter((request) => !seen.has(request))).toEqual([]);
  for (const request of network) {
    expect(seen.get(request), request).toMatchObject({ fromServiceWorker: false, serviceWorkerRouterInfo: { matchedSourceType: 'network' } });
  }
  expect(seen.get(`GET ${chunk}`)).toMatchObject({ fromServiceWorker: true });
});

test("an upload goes straight to the store: the upload worker runs under a service worker of its own, and the app's sees none of its requests", async ({
  page,
  context,
  request,
}) => {
  const signIn = (await (await request.post('/api/v1/login', { data: { email: 'owner@demo.cutdesk.test', password: 'demo-password' } })).json()) as {
    token: string;
    organizationId: number;
  };
  const created = await request.post(`/api/v1/organizations/${signIn.organizationId}/projects`, {
    headers: { authorization: `Bearer ${signIn.token}` },
    data: {
      name: `Worker scope ${Date.now()}`,
      audience: 'Everyone',
      goal: 'Sign-ups',
      finalVideoLength: '0-60 seconds',
      brief: 'Upload past the service worker.',
    },
  });
  const projectId = ((await created.json()) as { id: number }).id;
  // Both service workers installed from the sign-in page, which starts no upload worker.
  await page.goto('/login');
  await page.evaluate(async () => void (await navigator.serviceWorker.ready));
  const worker = await uploadWorkerFile();
  expect(worker).toBeTruthy();
  await expect
    .poll(() =>
      page.evaluate(async (url) => {
        const registration = await navigator.serviceWorker.getRegistration(url);
        return registration?.active ? `${new URL(registration.scope).pathname} ${new URL(registration.active.scriptURL).pathname}` : null;
      }, `/${worker}`),
    )
    .toBe('/assets/upload.worker /upload-worker-sw.js');
  const appWorker = context.serviceWorkers().find((sw) => sw.url().endsWith('/sw.js'))!;
  // Counts what reaches the app's service worker from here on (its own listener answers nothing).
  await appWorker.evaluate(() => {
    const scope = self as unknown as { seen: string[]; addEventListener: (type: string, listener: (event: { request: Request }) => void) => void };
    scope.seen = [];
    scope.addEventListener('fetch', (event) => scope.seen.push(`${event.request.method} ${new URL(event.request.url).pathname}`));
  });
  await page.close();

  const project = await context.newPage();
  await storeSession(project, signIn.token, signIn.organizationId);
  await project.goto(`/user/project/${projectId}`);
  await project.getByTestId('upload-input-ASSET').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: pngBytes() });
  const section = project.getByTestId('asset-section-ASSET');
  await expect(section.getByTestId('asset-tile')).toHaveCount(1);
  await expect(section).toContainText('logo.png');
  const seen = await appWorker.evaluate(() => (self as unknown as { seen: string[] }).seen);
  // The page's own reads still reach it (the built files it caches); nothing the upload sent did.
  expect(seen.filter((request) => !request.startsWith('GET '))).toEqual([]);
  expect(seen.filter((request) => request.includes('/upload.worker-') || request.includes('/s3/'))).toEqual([]);
});

test("the manifest passes Chromium's installability check on /login", async ({ baseURL }) => {
  // Installability is never granted in an incognito context (Playwright's default): a persistent profile.
  const profile = resolve(`.tmp/e2e-app-shell-profile-${process.env.E2E_PORT ?? 8181}`);
  await rm(profile, { recursive: true, force: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    viewport: { width: 1440, height: 900 },
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(page);
    await page.goto(`${baseURL}/login`);
    await page.waitForLoadState('networkidle');
    const { url, errors, data } = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[]; data?: string };
    expect(url).toMatch(/\/manifest\.webmanifest$/);
    expect(errors).toEqual([]);
    const manifest = JSON.parse(data ?? '{}') as { icons: { sizes: string; purpose?: string }[]; screenshots: { form_factor?: string }[] };
    expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`)).toEqual(
      expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']),
    );
    expect(manifest.screenshots.some((shot) => shot.form_factor === 'wide')).toBe(true);
    const installabilityErrors = async () =>
      ((await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] }).installabilityErrors.map((error) => error.errorId);
    await expect.poll(installabilityErrors, { timeout: 15_000 }).toEqual([]);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});

test.describe('the update prompt', () => {
  // A server of its own on a copy of the build, so a second build can be served under it.
  const PORT = Number(process.env.E2E_PORT ?? 8181) + 31;
  const BASE = `http://localhost:${PORT}`;
  const WORK = resolve(`.tmp/e2e-app-shell-${PORT}`);
  let server: ChildProcess | null = null;

  test.describe.configure({ mode: 'serial' });

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    // A copy taken while another run swaps in a new build can miss files: copied again until
    // every file the service worker precaches is there.
    await expect(async () => {
      await rm(WORK, { recursive: true, force: true });
      await cp(WEB_DIR, `${WORK}/web`, { recursive: true });
      const sw = await readFile(`${WORK}/web/sw.js`, 'utf8');
      const missing = [];
      for (const [, url] of sw.matchAll(/url:"([^"]+)"/g)) if (!(await stat(`${WORK}/web/${url}`).catch(() => null))) missing.push(url);
      expect(missing).toEqual([]);
    }).toPass({ timeout: 30_000 });
    server = spawn(process.execPath, ['server/main.ts'], {
      env: { ...process.env, PORT: String(PORT), DATA_DIR: `${WORK}/data`, WEB_DIR: `${WORK}/web`, ...E2E_SERVER_ENV },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    // A server of someone else on this port would answer too: ours is the one serving this probe.
    const probe = `e2e-probe-${process.pid}-${Date.now()}.txt`;
    await writeFile(`${WORK}/web/${probe}`, probe);
    const deadline = Date.now() + 120_000;
    while (
      (await fetch(`${BASE}/${probe}`).then(
        (response) => (response.ok ? response.text() : null),
        () => null,
      )) !== probe
    ) {
      if (server.exitCode !== null) throw new Error(`the update-prompt server on port ${PORT} exited (is the port in use?)`);
      if (Date.now() > deadline) throw new Error(`port ${PORT} does not answer with this test's server`);
      await new Promise((done) => setTimeout(done, 250));
    }
  });

  test.afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((done) => server!.once('exit', done));
      server.kill('SIGTERM');
      await exited;
    }
    await rm(WORK, { recursive: true, force: true });
  });

  /** "Deploys" a second build: index.html carries a marker, and sw.js a new revision of it. */
  async function deploySecondBuild(): Promise<void> {
    const index = await readFile(`${WORK}/web/index.html`, 'utf8');
    await writeFile(`${WORK}/web/index.html`, index.replace('<head>', '<head>\n    <meta name="cutdesk-build" content="second" />'));
    const sw = await readFile(`${WORK}/web/sw.js`, 'utf8');
    const next = sw.replace(/\{url:"index\.html",revision:"[^"]*"\}/, '{url:"index.html",revision:"e2e-second-build"}');
    expect(next).not.toBe(sw);
    await writeFile(`${WORK}/web/sw.js`, next);
    // A real build writes its compressed copies afresh (scripts/compress-build.ts); these edited
    // files have none, so the server sends them as they are rather than the first build's copies.
    for (const file of ['index.html', 'sw.js']) for (const suffix of ['.br', '.gz']) await rm(`${WORK}/web/${file}${suffix}`, { force: true });
  }

  test("a page whose upload worker the server no longer has starts it again through the app's service worker, from its precache, and uploads", async ({
    context,
    request,
  }) => {
    test.setTimeout(60_000);
    const signIn = await request.post(`${BASE}/api/v1/login`, { data: { email: 'owner@demo.cutdesk.test', password: 'demo-password' } });
    const { token, organizationId } = (await signIn.json()) as { token: string; organizationId: number };
    const created = await request.post(`${BASE}/api/v1/organizations/${organizationId}/projects`, {
      headers: { authorization: `Bearer ${token}` },
      data: {
        name: 'Worker gone',
        audience: 'Everyone',
        goal: 'Upload anyway',
        finalVideoLength: '1-2 minutes',
        brief: 'The upload worker of this version is gone from the server.',
      },
    });
    const { id } = (await created.json()) as { id: number };
    const worker = await uploadWorkerFile();
    // Installed from the sign-in page, which starts no upload worker: the app's service worker
    // has the upload worker in its precache.
    const installing = await context.newPage();
    await installing.goto(`${BASE}/login`);
    await installing.evaluate(async () => void (await navigator.serviceWorker.ready));
    // The upload worker's own service worker registers once the page has loaded: on a loaded
    // machine its activation can outlast the 10 s default.
    await expect
      .poll(() => installing.evaluate(async (url) => (await navigator.serviceWorker.getRegistration(url))?.active?.scriptURL ?? null, `/${worker}`), {
        timeout: 30_000,
      })
      .toMatch(/\/upload-worker-sw\.js$/);
    await installing.close();
    // A deploy took this version's files off the server (the page itself still comes from the precache).
    const moved = [];
    for (const suffix of ['', '.br', '.gz']) {
      const file = `${WORK}/web/${worker}${suffix}`;
      if (await stat(file).catch(() => null)) {
        await rename(file, `${file}.away`);
        moved.push(file);
      }
    }
    try {
      expect((await fetch(`${BASE}/${worker}`)).status).toBe(404);
      const page = await context.newPage();
      // The precache's own downloads went through the HTTP cache too: cleared, as a browser may.
      await (await context.newCDPSession(page)).send('Network.clearBrowserCache');
      const warnings: string[] = [];
      page.on('console', (message) => void (message.type() === 'warning' && warnings.push(message.text())));
      await storeSession(page, token, organizationId);
      await page.goto(`${BASE}/user/project/${id}`);
      await expect(page.getByTestId('asset-section-ASSET')).toBeVisible();
      await page.getByTestId('upload-input-ASSET').setInputFiles({ name: 'still-works.png', mimeType: 'image/png', buffer: pngBytes() });
      const section = page.getByTestId('asset-section-ASSET');
      // The upload worker starts again from the precache first (a second worker start, then the upload).
      await expect(section.getByTestId('asset-tile')).toHaveCount(1, { timeout: 30_000 });
      await expect(section).toContainText('still-works.png');
      expect(warnings).toContain('the upload worker could not start: starting it again through the app’s service worker');
      await page.close();
    } finally {
      for (const file of moved) await rename(`${file}.away`, file);
    }
  });

  test('a waiting version shows the banner, never reloads by itself, asks first while an upload runs, and Reload brings it', async ({ page, request }) => {
    test.setTimeout(120_000);
    const marker = () =>
      page
        .locator('meta[name="cutdesk-build"]')
        .getAttribute('content', { timeout: 1_000 })
        .catch(() => null);
    // Signed in on the project page of a new project, where files can be uploaded.
    const signIn = await request.post(`${BASE}/api/v1/login`, { data: { email: 'owner@demo.cutdesk.test', password: 'demo-password' } });
    const { token, organizationId } = (await signIn.json()) as { token: string; organizationId: number };
    const created = await request.post(`${BASE}/api/v1/organizations/${organizationId}/projects`, {
      headers: { authorization: `Bearer ${token}` },
      data: {
        name: 'Update prompt',
        audience: 'Everyone',
        goal: 'Test the update prompt',
        finalVideoLength: '1-2 minutes',
        brief: 'An upload runs while a new version waits.',
      },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: number };
    await storeSession(page, token, organizationId);
    await page.goto(`${BASE}/user/project/${id}`);
    await expect(page.getByTestId('asset-section-INTERVIEW_CLIP')).toBeVisible();
    // The first version installs and then controls the page (as it does in the installed app).
    await expect.poll(() => page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.active)), { timeout: 30_000 }).toBe(true);
    await page.reload();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await expect(page.getByTestId('asset-section-INTERVIEW_CLIP')).toBeVisible();
    const banner = page.getByRole('status').filter({ hasText: 'A new version of Cutdesk is ready' });
    await expect(banner).toHaveCount(0);

    await deploySecondBuild();
    await page.evaluate(async () => void (await (await navigator.serviceWorker.getRegistration())?.update()));
    await expect(banner).toBeVisible({ timeout: 20_000 });
    await expect(banner).toContainText('A new version of Cutdesk is ready —');
    await expect(banner.getByRole('button', { name: 'Reload' })).toBeVisible();
    // Nothing happens until the user agrees: still the first version, still the same page.
    await page.waitForTimeout(2_000);
    expect(await marker()).toBeNull();
    await expect(banner).toBeVisible();

    // An upload starts (throttled to 2 MB/s upstream, in the page and in the upload worker the
    // zone started): the banner says to wait, and Reload asks first.
    const network = await networkConditions(page);
    const throttle = (bytesPerSecond: number) => network({ offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
    await throttle(2_000_000);
    await network.uploadWorkerReady();
    const clip = Buffer.alloc(24 * 1000 * 1000);
    MP4_FTYP.copy(clip, 0);
    await page.getByTestId('upload-input-INTERVIEW_CLIP').setInputFiles({ name: 'interview.mp4', mimeType: 'video/mp4', buffer: clip });
    await expect(page.getByTestId('pending-tile')).toHaveAttribute('data-upload-status', 'uploading');
    await expect(banner).toContainText('Reload when your uploads finish');
    await banner.getByRole('button', { name: 'Reload' }).click();
    const ask = page.getByRole('dialog', { name: 'Reload now?' });
    await expect(ask).toContainText('Uploads are still running');
    await ask.getByRole('button', { name: 'Wait' }).click();
    await expect(ask).toHaveCount(0);
    expect(await marker()).toBeNull();

    // The upload finishes: a plain Reload again, which activates the new version and reloads into it.
    await throttle(-1);
    await expect(banner).toContainText('A new version of Cutdesk is ready —', { timeout: 60_000 });
    await Promise.all([page.waitForEvent('load'), banner.getByRole('button', { name: 'Reload' }).click()]);
    await expect.poll(marker, { timeout: 15_000 }).toBe('second');
    await expect(page.getByRole('status').filter({ hasText: 'A new version of Cutdesk is ready' })).toHaveCount(0);
  });
});
