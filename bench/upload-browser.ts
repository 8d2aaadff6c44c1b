/**
 * bench/upload-browser (issue 14, "Uploads"): the same file uploaded in the same headless
 * Chromium to the same real server's embedded store by
 *   - Cutdesk's own project page (the real upload worker, built by Vite; opened once, as a
 *     returning user's, the service worker already installed), with the store on its
 *     own port (`cutdesk`) and, before issue 14's change, under /s3 on the app's origin
 *     (`cutdesk-s3-path`, a second server started with S3_PORT=off);
 *   - `cutdesk-app-sw`: the same page with the upload worker under the app's service worker (its
 *     own fetch-less one kept from registering), as before stop 27;
 *   - `cutdesk-base`: the same page from another build (BENCH_BASE_WEB_DIR, e.g. the commit
 *     before a change), on a server and store of its own: a product change A/B'd in one run;
 *   - Uppy 5 `@uppy/aws-s3` (20 MiB parts, 6 requests at once; this process is its backend:
 *     create, a presigned URL per part, complete — as Companion would be); its page draws
 *     nothing;
 *   - `uppy5-dashboard`: the same uploader with Uppy's own Dashboard drawing the file, its
 *     progress, speed and time left: Uppy as a product ships it, beside Cutdesk's page, which
 *     draws its progress too;
 *   - Uppy 6 `@uppy/aws-s3` (signs in the page with Cutdesk's temporary credentials);
 *   - `@aws-sdk/lib-storage` in the page (20 MiB parts, queue of 6, the same credentials);
 *   - `bare`: no library at all (every part presigned at the start, six fetch PUTs at once, no
 *     progress or state): the ceiling any page reaches against this store;
 *   - `bare-worker` / `bare-worker-xhr`: the same, sent from a shared worker (by fetch, or by
 *     XMLHttpRequest with an upload progress listener, as Cutdesk's worker sends): what moving
 *     the upload off the page costs by itself.
 * Three rounds, the kinds interleaved, a fresh browser per run. Per run: MB/s (2²⁰ bytes) from
 * the file handed to the page to the upload done (Cutdesk: its registration answered), the time
 * after the last part's answer, the page's renderer and the whole browser's peak memory (RSS,
 * /proc, sampled every 0.3 s), CPU seconds per GiB of the renderer and of the browser (/proc),
 * and the renderer's threads by CPU. Then a reload at 50 % (counted at the store's own listener:
 * bytes received beyond the file) for Cutdesk and Uppy 6 + Golden Retriever, and the browser
 * killed at 50 % (SIGKILL; started again on the same profile, the same file picked again).
 *
 * `npm run bench upload-browser`; BENCH_UPLOAD_GIB=3 for 3 GiB, BENCH_ROUNDS (3), BENCH_KINDS
 * (comma list), BENCH_WEB_DIR (a build to reuse), BENCH_SKIP_RELOAD / BENCH_SKIP_KILL, BENCH_CPU_PROFILE
 * (a path prefix: the page's main thread and the shared upload worker profiled over each run),
 * BENCH_TRACE (a path prefix: a Chromium trace of each run, the renderer's thread pool too),
 * BENCH_VERBOSE (each step of Cutdesk's set-up on stderr), BENCH_SCREENSHOT (a path prefix: the page
 * 2 s into each run).
 * BENCH_BASE_WEB_DIR (the build `cutdesk-base` serves). Ports 8233–8238, data under .tmp/upload-bench-*. Each run starts on an idle server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  ListPartsCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import { build } from 'vite';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { PART_SIZE, PARALLEL_PARTS } from '../src/domain/uploads.ts';
import { spread } from './stats.ts';

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
const SIZE = Math.round(Number(process.env.BENCH_UPLOAD_GIB ?? 1) * GiB);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PASSWORD = 'bench-password';
const root = fileURLToPath(new URL('..', import.meta.url));
const work = join(root, '.tmp', 'upload-bench-run');
const PORT_BEFORE = 8233;
const PORT = 8234;
const STORE_PORT = 8235;
const PAGE_PORT = 8236;
const PORT_BASE = 8237;
const STORE_PORT_BASE = 8238;
const HOST = '127.0.0.1';
const MP4_FTYP = Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex');
const CLOCK_TICKS = 100;
/** A run that has not finished by then failed (at least 3 MB/s even on a loaded machine). */
const RUN_TIMEOUT_MS = Math.max(120_000, (SIZE / (3 * MiB)) * 1000);

type Peer = 'uppy5' | 'uppy5-dashboard' | 'uppy6' | 'sdk' | 'bare' | 'bare-worker' | 'bare-worker-xhr';
type Kind = 'cutdesk-s3-path' | 'cutdesk' | 'cutdesk-app-sw' | 'cutdesk-base' | Peer;
const KINDS: Kind[] = (process.env.BENCH_KINDS?.split(',') as Kind[] | undefined) ?? [
  'cutdesk-s3-path',
  'cutdesk',
  'uppy5',
  'uppy6',
  'sdk',
  'bare',
  'bare-worker-xhr',
];

/** A clip: an MP4 `ftyp` box (the server registers video by its bytes), then random bytes. */
async function makeClip(path: string, size: number): Promise<void> {
  const out = createWriteStream(path);
  for (let written = 0; written < size; written += 8 * MiB) {
    const block = randomBytes(Math.min(8 * MiB, size - written));
    if (written === 0) MP4_FTYP.copy(block, 0);
    if (!out.write(block)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

export function run(command: string, args: string[], env: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let output = '';
    proc.stdout.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
    proc.stderr.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
    proc.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${code}):\n${output}`))));
  });
}

/** The benchmark pages (bench/upload-browser/pages), bundled with Vite: each peer's own library code. */
async function buildPages(outDir: string): Promise<void> {
  const pages = join(root, 'bench/upload-browser/pages');
  await build({
    configFile: false,
    root: pages,
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      rollupOptions: {
        input: {
          uppy5: join(pages, 'uppy5.js'),
          'uppy5-dashboard': join(pages, 'uppy5-dashboard.js'),
          uppy6: join(pages, 'uppy6.js'),
          sdk: join(pages, 'sdk.js'),
          bare: join(pages, 'bare.js'),
          'bare-worker': join(pages, 'bare-worker.js'),
        },
        output: { entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
      },
    },
  });
}

export async function startServer(dataDir: string, webDir: string, port: number, storePort: string): Promise<ChildProcess> {
  const server = spawn(process.execPath, [join(root, 'server/main.ts')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      S3_PORT: storePort,
      HOST,
      DATA_DIR: dataDir,
      WEB_DIR: webDir,
      DEMO_PASSWORD: PASSWORD,
      DEMO_VIDEOS: 'off',
      LOG_LEVEL: 'warn',
      SEED: 'demo',
      MAX_EVENT_LOOP_DELAY_MS: '60000',
      RATE_LIMIT_PER_EMAIL: '1000',
    },
  });
  let output = '';
  server.stdout!.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  server.stderr!.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  for (let i = 0; i < 600; i += 1) {
    const healthy = await fetch(`http://${HOST}:${port}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) return server;
    if (server.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  server.kill();
  throw new Error(`the server did not start:\n${output}`);
}

export interface Api {
  base: string;
  token: string;
  organizationId: number;
  project(name: string): Promise<number>;
  credentials(projectId: number): Promise<Credentials>;
}
interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  endpoint: string;
  bucket: string;
  region: string;
  prefix: string;
}

export async function api(base: string): Promise<Api> {
  const login = (await (
    await fetch(`${base}/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@demo.cutdesk.test', password: PASSWORD }),
    })
  ).json()) as { token: string; organizationId: number };
  const call = async (path: string, body: unknown) => {
    const response = await fetch(`${base}/api/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${login.token}` },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<unknown>;
  };
  return {
    base,
    token: login.token,
    organizationId: login.organizationId,
    project: async (name) =>
      (
        (await call(`/organizations/${login.organizationId}/projects`, {
          name,
          audience: 'Bench',
          goal: 'Bench',
          finalVideoLength: '1-2 minutes',
          brief: 'Upload bench.',
        })) as { id: number }
      ).id,
    credentials: async (projectId) => (await call('/uploads/credentials', { projectId })) as Credentials,
  };
}

/** The store's bytes received on its own listener (server/storage/store-listener.ts), from /metrics (loopback). */
export async function storeReceivedBytes(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(/^cutdesk_store_listener_received_bytes_total (\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(text)?.[1] ?? NaN);
}

/**
 * This process as the pages' web server and Uppy 5's backend (create, presign each part, list,
 * complete, abort: what Companion or an app server does), with the store's own key pair.
 */
function pageServer(pagesDir: string, s3: S3Client, bucket: string): { server: Server; setConfig(config: Record<string, unknown>): void } {
  let config: Record<string, unknown> = {};
  const json = (response: ServerResponse, body: unknown) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  type UppyBody = { key: string; type?: string; uploadId: string; partNumber: number; parts: { PartNumber: number; ETag: string }[] };
  const body = async <T = UppyBody>(request: IncomingMessage) => {
    let text = '';
    for await (const chunk of request) text += (chunk as Buffer).toString();
    return JSON.parse(text) as T;
  };
  const presign = (key: string, uploadId: string, partNumber: number) =>
    getSignedUrl(s3, new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: partNumber }), { expiresIn: 3600 });
  const create = async (key: string, type: string | undefined) =>
    (await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: type }))).UploadId!;
  const server = createServer((request, response) => {
    void (async () => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      if (path.endsWith('.html')) {
        const name = path.slice(1, -'.html'.length);
        response
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            `<!doctype html><meta charset="utf-8"><title>${name}</title><input type="file" id="file"><script>window.BENCH=${JSON.stringify(config)}</script><script type="module" src="/${name}.js"></script>`,
          );
      } else if (path === '/uppy/create') {
        const { key, type } = await body(request);
        json(response, { uploadId: await create(key, type), key });
      } else if (path === '/bare/create') {
        // The bare page: created and every part presigned in one answer.
        const { key, type, partCount } = await body<{ key: string; type: string; partCount: number }>(request);
        const uploadId = await create(key, type);
        json(response, { uploadId, key, urls: await Promise.all(Array.from({ length: partCount }, (_, i) => presign(key, uploadId, i + 1))) });
      } else if (path === '/uppy/sign-part') {
        const { key, uploadId, partNumber } = await body(request);
        json(response, { method: 'PUT', url: await presign(key, uploadId, partNumber) });
      } else if (path === '/uppy/list-parts') {
        const { key, uploadId } = await body(request);
        const answer = await s3.send(new ListPartsCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
        json(
          response,
          (answer.Parts ?? []).map((part) => ({ PartNumber: part.PartNumber, Size: part.Size, ETag: part.ETag })),
        );
      } else if (path === '/uppy/complete') {
        const { key, uploadId, parts } = await body(request);
        await s3.send(
          new CompleteMultipartUploadCommand({
            Bucket: bucket,
            Key: key,
            UploadId: uploadId,
            MultipartUpload: { Parts: parts.map((part) => ({ PartNumber: part.PartNumber, ETag: part.ETag })) },
          }),
        );
        json(response, { location: key });
      } else if (path === '/uppy/abort') {
        const { key, uploadId } = await body(request);
        await s3.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
        json(response, {});
      } else if (path.endsWith('.js')) {
        const file = join(pagesDir, path.slice(1));
        if (!file.startsWith(pagesDir) || !existsSync(file)) response.writeHead(404).end();
        else response.writeHead(200, { 'content-type': 'text/javascript' }).end(await readFile(file));
      } else response.writeHead(404).end();
    })().catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  return { server, setConfig: (next) => (config = next) };
}

/** /proc figures of one process. */
async function procStat(pid: number): Promise<{ rss: number; private: number; ticks: number } | null> {
  try {
    const [status, stat] = await Promise.all([readFile(`/proc/${pid}/status`, 'utf8'), readFile(`/proc/${pid}/stat`, 'utf8')]);
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
    // Private = anonymous resident memory + swap: Chromium's own "private memory footprint" on
    // Linux (what its task manager shows). RSS also counts the browser binary's code pages a
    // process has touched, which every renderer shares.
    return { rss: kib('VmRSS'), private: kib('RssAnon') + kib('VmSwap'), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

/** CPU ticks of each thread of a process, by thread name (Chromium names its threads). */
async function threadTicks(pid: number): Promise<Map<string, number>> {
  const byName = new Map<string, number>();
  for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [] as string[])) {
    const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8').catch(() => '');
    if (!stat) continue;
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    byName.set(name, (byName.get(name) ?? 0) + Number(fields[11]) + Number(fields[12]));
  }
  return byName;
}

/** Memory and CPU of every process of the browser while an upload runs. */
function sampleBrowser(cdp: CDPSession) {
  const processes = new Map<number, string>();
  const peak = new Map<number, number>();
  const privatePeak = new Map<number, number>();
  const startPrivate = new Map<number, number>();
  const startTicks = new Map<number, number>();
  // Each process's memory at its first sample: the page loaded and idle, before the file is handed over.
  const startRss = new Map<number, number>();
  let totalPeak = 0;
  let stopped = false;
  let listedAt = 0;
  const list = async () => {
    const info = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { id: number; type: string }[] };
    for (const each of info.processInfo) processes.set(each.id, each.type);
    listedAt = Date.now();
  };
  const sample = async () => {
    if (Date.now() - listedAt > 1500) await list().catch(() => undefined);
    let total = 0;
    for (const pid of processes.keys()) {
      const figures = await procStat(pid);
      if (!figures) continue;
      if (!startTicks.has(pid)) startTicks.set(pid, figures.ticks);
      if (!startRss.has(pid)) startRss.set(pid, figures.rss);
      if (!startPrivate.has(pid)) startPrivate.set(pid, figures.private);
      privatePeak.set(pid, Math.max(privatePeak.get(pid) ?? 0, figures.private));
      total += figures.rss;
      peak.set(pid, Math.max(peak.get(pid) ?? 0, figures.rss));
    }
    totalPeak = Math.max(totalPeak, total);
  };
  let rendererThreadsStart = new Map<string, number>();
  const loop = (async () => {
    await list();
    await sample();
    while (!stopped) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await sample();
    }
  })();
  loop.catch(() => undefined);
  return {
    async begin() {
      await list();
      await sample();
      // The page's renderer is not known yet: every renderer's threads are read, the busiest kept.
      rendererThreadsStart = new Map();
      for (const [pid, type] of processes)
        if (type === 'renderer') for (const [name, ticks] of await threadTicks(pid)) rendererThreadsStart.set(`${pid}/${name}`, ticks);
    },
    async end() {
      await sample();
      stopped = true;
      await loop;
      let renderer = { pid: 0, ticks: -1 };
      let browserTicks = 0;
      for (const [pid, type] of processes) {
        const figures = await procStat(pid);
        if (!figures) continue;
        const ticks = figures.ticks - (startTicks.get(pid) ?? figures.ticks);
        browserTicks += ticks;
        if (type === 'renderer' && ticks > renderer.ticks) renderer = { pid, ticks };
      }
      const threads: Record<string, number> = {};
      for (const [name, ticks] of await threadTicks(renderer.pid)) {
        const used = (ticks - (rendererThreadsStart.get(`${renderer.pid}/${name}`) ?? 0)) / CLOCK_TICKS;
        if (used >= 0.05) threads[name] = Math.round(((threads[name] ?? 0) + used) * 100) / 100;
      }
      return {
        rendererPeakBytes: peak.get(renderer.pid) ?? 0,
        rendererIdleBytes: startRss.get(renderer.pid) ?? 0,
        rendererPrivatePeakBytes: privatePeak.get(renderer.pid) ?? 0,
        rendererPrivateIdleBytes: startPrivate.get(renderer.pid) ?? 0,
        browserPeakBytes: totalPeak,
        rendererCpuSeconds: renderer.ticks / CLOCK_TICKS,
        browserCpuSeconds: browserTicks / CLOCK_TICKS,
        rendererThreads: threads,
      };
    },
  };
}

interface Setup {
  browser: Browser;
  page: Page;
  /**
   * Hands the file to the page; resolves when the upload is done. `stored`: settles when the
   * store holds every byte (the run's own watch of the store, so the store is not polled twice).
   */
  start(stored?: Promise<void>): Promise<void>;
  /** After a reload mid-way: the page is back and has the same file again. */
  resumeAfterReload(): Promise<void>;
  /** Part answers seen (DevTools sees the worker's requests too): when each went and came. */
  parts: { started: number; answered: number }[];
  /**
   * Cutdesk's: deletes what the run stored. Issue 35: the next run's clip, the same bytes, would
   * otherwise be made from the stored copy with nothing sent.
   */
  forget?(): Promise<void>;
}

export async function launch(): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  return { browser, page: await context.newPage() };
}

function watchParts(page: Page, parts: Setup['parts']): void {
  page.context().on('requestfinished', (request) => {
    if (request.method() !== 'PUT' || !new URL(request.url()).searchParams.has('partNumber')) return;
    const timing = request.timing();
    parts.push({ started: timing.startTime + timing.requestStart, answered: timing.startTime + timing.responseStart });
  });
}

async function setUpCutdesk(file: string, target: Api, round: number, label: string): Promise<Setup> {
  const step = (what: string) => process.env.BENCH_VERBOSE && console.error(`  ${label}: ${what}`);
  step('launching');
  const { browser, page: installing } = await launch();
  step('launched');
  // A returning user's page: the service worker installed from another tab (the sign-in page,
  // which starts no upload worker), closed before the project page opens. Loaded twice in one
  // process — a reload, or a tab the upload worker keeps alive — the page's renderer holds about
  // 10 MiB more at rest, which no returning user has.
  // `cutdesk-app-sw`: the upload worker's own service worker kept from registering, so the
  // worker runs under the app's, as it did before stop 27 (its parts were fetch events there).
  const appServiceWorkerOnly = label === 'cutdesk-app-sw';
  if (appServiceWorkerOnly) await installing.context().route(/\/upload-worker-sw\.js$/, (route) => route.abort());
  await installing.goto(`${target.base}/login`);
  await withTimeout(installing.evaluate('navigator.serviceWorker.ready.then(() => true)'), 60_000, 'the service worker did not become ready');
  // The scope the upload worker starts under: its own service worker's, or (kept from registering) the app's.
  const workerScope = async () =>
    (await installing.evaluate(
      "navigator.serviceWorker.getRegistration('/assets/upload.worker-0.js').then((registration) => (registration && registration.active ? new URL(registration.scope).pathname : null))",
    )) as string | null;
  const expected = appServiceWorkerOnly ? '/' : '/assets/upload.worker';
  for (let tries = 0; (await workerScope()) !== expected; tries += 1) {
    if (tries > 100) throw new Error(`the upload worker's scope is ${await workerScope()}, not ${expected}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const page = await installing.context().newPage();
  await installing.close();
  step('service worker ready');
  const projectId = await target.project(`Bench ${label} ${round}`);
  step(`project ${projectId}`);
  const parts: Setup['parts'] = [];
  watchParts(page, parts);
  let finish: () => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => ((finish = resolve), (fail = reject)));
  // Done when the clip is registered. The upload worker is a shared worker where Chromium has
  // `extendedLifetime`, and DevTools does not show a page the requests of a shared worker, so
  // the project's assets are polled (every 20 ms) — once the store holds every byte: polled for
  // the whole upload, those API reads cost the server more CPU than the peers' runs get (about
  // 0.5 CPU s per GiB on 2 cores), and the bench measured itself.
  let watching = false;
  const watchRegistration = async (stored: Promise<void>) => {
    watching = true;
    await stored;
    while (watching) {
      const answer = await fetch(`${target.base}/api/v1/projects/${projectId}/assets?type=InterviewClip`, {
        headers: { authorization: `Bearer ${target.token}` },
      });
      if (!answer.ok) return fail(new Error(`assets ${answer.status}`));
      if (((await answer.json()) as unknown[]).length > 0) return finish();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await page.addInitScript(
    ([token, organizationId]) => {
      localStorage.setItem('cutdesk.token', JSON.stringify(token));
      localStorage.setItem('cutdesk.orgId', JSON.stringify(organizationId));
    },
    [target.token, target.organizationId] as const,
  );
  await page.goto(`${target.base}/user/project/${projectId}`);
  await page.waitForFunction('navigator.serviceWorker.controller !== null');
  await page.getByTestId('asset-section-INTERVIEW_CLIP').waitFor();
  step('project page shown');
  const input = page.getByTestId('upload-input-INTERVIEW_CLIP');
  return {
    browser,
    page,
    parts,
    forget: async () => {
      await fetch(`${target.base}/api/v1/projects/${projectId}/assets`, { method: 'DELETE', headers: { authorization: `Bearer ${target.token}` } });
    },
    start: async (stored) => {
      // The store behind /s3 only (cutdesk-s3-path) has no listener of its own to count on.
      const own = stored ? null : await watchStore(target.base);
      void watchRegistration(stored ?? (own?.countable ? own.allReceived : Promise.resolve()));
      await input.setInputFiles(file);
      await withTimeout(done, RUN_TIMEOUT_MS, 'the upload did not finish in time').finally(() => {
        watching = false;
        void own?.stop();
      });
    },
    resumeAfterReload: async () => {
      page.once('dialog', (dialog) => void dialog.accept());
      await page.reload();
      // The upload shows again (incomplete with a dedicated worker, still going with the shared one).
      await page.getByTestId('pending-tile').first().waitFor({ timeout: 60_000 });
      await input.setInputFiles(file);
    },
  };
}

async function setUpPeer(file: string, kind: Peer, pages: ReturnType<typeof pageServer>, target: Api, round: number, goldenRetriever = false): Promise<Setup> {
  const { browser, page } = await launch();
  const projectId = await target.project(`Bench ${kind} ${round}`);
  const credentials = await target.credentials(projectId);
  const parts: Setup['parts'] = [];
  watchParts(page, parts);
  let finish: () => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => ((finish = resolve), (fail = reject)));
  await page.context().exposeBinding('benchEvent', (_source, event: { type: string; message?: string }) => {
    if (event.type === 'done') finish();
    else if (event.type === 'error') fail(new Error(`${kind}: ${event.message}`));
  });
  pages.setConfig({
    endpoint: credentials.endpoint,
    bucket: credentials.bucket,
    region: credentials.region,
    key: `${credentials.prefix}interviews/${kind}-${round}-${Date.now()}.mp4`,
    credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey, sessionToken: credentials.sessionToken },
    partSize: PART_SIZE,
    limit: PARALLEL_PARTS,
    goldenRetriever,
    xhr: kind === 'bare-worker-xhr',
  });
  await page.goto(`http://${HOST}:${PAGE_PORT}/${kind === 'bare-worker-xhr' ? 'bare-worker' : kind}.html`);
  const input = page.locator('#file');
  return {
    browser,
    page,
    parts,
    start: async () => {
      await input.setInputFiles(file);
      await withTimeout(done, RUN_TIMEOUT_MS, 'the upload did not finish in time');
    },
    resumeAfterReload: async () => {
      await page.reload();
      // Golden Retriever restores its state from IndexedDB asynchronously.
      await page.waitForFunction('window.benchRestored === true', undefined, { timeout: 30_000 });
      await input.setInputFiles(file);
    },
  };
}

/** Chromium on a profile of its own, which a crash leaves behind as a user's would (IndexedDB, the service worker). */
async function launchProfile(profile: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    viewport: { width: 1440, height: 900 },
  });
  return { context, page: context.pages()[0] ?? (await context.newPage()) };
}

/** Ends the Chromium that runs on `profile` as a crash would: SIGKILL to the browser process, nothing unloaded or flushed. */
async function killChromium(profile: string): Promise<void> {
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const args = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
    if (args.includes(`--user-data-dir=${profile}`) && !args.some((arg) => arg.startsWith('--type='))) process.kill(Number(pid), 'SIGKILL');
  }
}

/**
 * The browser killed at 50 % and started again on the same profile, the same file picked again:
 * MiB the store received beyond the file. Cutdesk resumes from IndexedDB and ListParts; Uppy 6
 * from Golden Retriever's IndexedDB state (the files themselves are not kept by either).
 */
async function killAt50Percent(
  kind: 'cutdesk' | 'uppy6-golden-retriever',
  file: string,
  target: Api,
  pages: ReturnType<typeof pageServer>,
  round: number,
): Promise<number> {
  const profile = join(work, `profile-${kind}-${round}`);
  await rm(profile, { recursive: true, force: true });
  let { context, page } = await launchProfile(profile);
  try {
    const projectId = await target.project(`Bench kill ${kind} ${round}`);
    const projectUrl = `${target.base}/user/project/${projectId}`;
    let done: Promise<void> = Promise.resolve();
    const open = async () => {
      if (kind === 'cutdesk') {
        await context.addInitScript(
          ([token, organizationId]) => {
            localStorage.setItem('cutdesk.token', JSON.stringify(token));
            localStorage.setItem('cutdesk.orgId', JSON.stringify(organizationId));
          },
          [target.token, target.organizationId] as const,
        );
        await page.goto(projectUrl);
        await page.getByTestId('asset-section-INTERVIEW_CLIP').waitFor();
        return page.getByTestId('upload-input-INTERVIEW_CLIP');
      }
      done = new Promise<void>((resolve, reject) => {
        void context.exposeBinding('benchEvent', (_source, event: { type: string; message?: string }) =>
          event.type === 'done' ? resolve() : event.type === 'error' ? reject(new Error(event.message)) : undefined,
        );
      });
      await page.goto(`http://${HOST}:${PAGE_PORT}/uppy6.html`);
      return page.locator('#file');
    };
    if (kind === 'uppy6-golden-retriever') {
      const credentials = await target.credentials(projectId);
      pages.setConfig({
        endpoint: credentials.endpoint,
        bucket: credentials.bucket,
        region: credentials.region,
        key: `${credentials.prefix}interviews/kill-${round}-${Date.now()}.mp4`,
        credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey, sessionToken: credentials.sessionToken },
        partSize: PART_SIZE,
        limit: PARALLEL_PARTS,
        goldenRetriever: true,
      });
    }
    const receivedBefore = await storeReceivedBytes(target.base);
    await (await open()).setInputFiles(file);
    const deadline = Date.now() + RUN_TIMEOUT_MS;
    while ((await storeReceivedBytes(target.base)) - receivedBefore < SIZE / 2) {
      if (Date.now() > deadline) throw new Error('50 % was not reached in time');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await killChromium(profile);
    await context.close().catch(() => undefined);
    ({ context, page } = await launchProfile(profile));
    const input = await open();
    if (kind === 'cutdesk') await page.getByTestId('pending-tile').first().waitFor({ timeout: 60_000 });
    else await page.waitForFunction('window.benchRestored === true', undefined, { timeout: 30_000 });
    await input.setInputFiles(file);
    if (kind === 'cutdesk') {
      const registered = async () =>
        (
          (await (
            await fetch(`${target.base}/api/v1/projects/${projectId}/assets?type=InterviewClip`, { headers: { authorization: `Bearer ${target.token}` } })
          ).json()) as unknown[]
        ).length > 0;
      while (!(await registered())) {
        if (Date.now() > deadline) throw new Error('the upload did not finish in time');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } else await withTimeout(done, RUN_TIMEOUT_MS, 'the upload did not finish in time');
    return (await storeReceivedBytes(target.base)) - receivedBefore - SIZE;
  } finally {
    await context.close().catch(() => undefined);
    await rm(profile, { recursive: true, force: true });
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

/**
 * Part requests on the wire at once (request sent, answer not yet begun), from DevTools' timings:
 * the most, and the mean over the time from the first part's start to the last part's answer.
 */
function partsInFlight(parts: Setup['parts']): { max: number; mean: number } {
  const edges = parts
    .flatMap(
      (part) =>
        [
          [part.started, 1],
          [part.answered, -1],
        ] as const,
    )
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let max = 0;
  let area = 0;
  for (let i = 0; i < edges.length; i += 1) {
    max = Math.max(max, (now += edges[i]![1]));
    if (i + 1 < edges.length) area += now * (edges[i + 1]![0] - edges[i]![0]);
  }
  const span = edges.length ? edges[edges.length - 1]![0] - edges[0]![0] : 0;
  return { max, mean: span > 0 ? Math.round((area / span) * 100) / 100 : 0 };
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const round2 = (value: number) => Math.round(value * 100) / 100;

/** CPU ticks of the server process, and of its main thread (the event loop, where the store's requests are handled). */
async function serverTicks(pid: number): Promise<{ all: number; main: number }> {
  const ticksOf = async (path: string) => {
    const stat = await readFile(path, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  };
  return { all: await ticksOf(`/proc/${pid}/stat`), main: await ticksOf(`/proc/${pid}/task/${pid}/stat`) };
}

/**
 * When the store's own listener saw the upload's first bytes and its last (polled every 20 ms):
 * what a kind spends before its first part goes and after its last part arrived, at the store,
 * the same for every kind (DevTools shows no part timings for a shared worker).
 */
async function watchStore(base: string) {
  let watching = true;
  const before = await storeReceivedBytes(base);
  const started = performance.now();
  const times = { firstByte: NaN, lastByte: NaN };
  let allReceived!: () => void;
  const received = new Promise<void>((resolve) => (allReceived = resolve));
  const watched = (async () => {
    while (watching) {
      const bytes = (await storeReceivedBytes(base)) - before;
      const now = (performance.now() - started) / 1000;
      if (bytes > 0 && Number.isNaN(times.firstByte)) times.firstByte = now;
      if (bytes >= SIZE && Number.isNaN(times.lastByte)) {
        times.lastByte = now;
        allReceived();
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    /** False when the server has no store listener of its own (its counter is not in /metrics). */
    countable: Number.isFinite(before),
    /** Settles once the store holds every byte of the file. */
    allReceived: received,
    async stop() {
      watching = false;
      await watched;
      return times;
    },
  };
}

/**
 * BENCH_CPU_PROFILE=prefix: the page's main thread and any shared worker's thread profiled over
 * each run, written to `<prefix>-<kind>-<round>[-worker].cpuprofile` (DevTools opens them). A
 * shared worker is a target of the browser, not of the page: it is reached through the browser's
 * session (`Target.sendMessageToTarget`).
 */
async function profilePage(page: Page, browserSession: CDPSession, name: string): Promise<() => Promise<void>> {
  const prefix = process.env.BENCH_CPU_PROFILE;
  if (!prefix) return async () => undefined;
  const session = await page.context().newCDPSession(page);
  await session.send('Profiler.enable');
  await session.send('Profiler.start');
  const { targetInfos } = await browserSession.send('Target.getTargets');
  const workers = await Promise.all(
    targetInfos
      .filter((target) => target.type === 'shared_worker')
      .map((target) => browserSession.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })),
  );
  const answers = new Map<number, (result: unknown) => void>();
  let nextId = 1;
  browserSession.on('Target.receivedMessageFromTarget', ({ message }) => {
    const parsed = JSON.parse(message) as { id?: number; result?: unknown; error?: unknown };
    if (parsed.id !== undefined) answers.get(parsed.id)?.(parsed.result ?? { error: parsed.error });
  });
  const toWorker = (sessionId: string, method: string) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      answers.set(id, resolve);
      void browserSession.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) });
    });
  for (const { sessionId } of workers) {
    await toWorker(sessionId, 'Profiler.enable');
    await toWorker(sessionId, 'Profiler.start');
  }
  return async () => {
    const { profile } = await session.send('Profiler.stop');
    await writeFile(`${prefix}-${name}.cpuprofile`, JSON.stringify(profile));
    for (const [index, { sessionId }] of workers.entries()) {
      const result = (await toWorker(sessionId, 'Profiler.stop')) as { profile?: unknown; error?: unknown };
      if (result.profile) await writeFile(`${prefix}-${name}-worker${index}.cpuprofile`, JSON.stringify(result.profile));
      else console.error(`  no profile from the shared worker: ${JSON.stringify(result.error)}`);
    }
  };
}

/**
 * BENCH_TRACE=prefix: a Chromium trace of every process over each run (V8's garbage collector
 * and compiler, the scheduler's tasks, by thread), written to `<prefix>-<kind>-<round>.json`
 * (chrome://tracing and Perfetto open it): what the renderer's thread pool does, which a CPU
 * profile does not show.
 */
async function traceBrowser(browserSession: CDPSession, name: string): Promise<() => Promise<void>> {
  const prefix = process.env.BENCH_TRACE;
  if (!prefix) return async () => undefined;
  const events: unknown[] = [];
  const collect = ({ value }: { value: unknown[] }) => void events.push(...value);
  browserSession.on('Tracing.dataCollected', collect);
  const categories = [
    'toplevel',
    'v8',
    'v8.execute',
    'disabled-by-default-v8.gc',
    'disabled-by-default-v8.compile',
    'blink',
    'loading',
    'disabled-by-default-devtools.timeline',
    '__metadata',
  ];
  await browserSession.send('Tracing.start', { traceConfig: { includedCategories: categories, excludedCategories: ['*'] }, transferMode: 'ReportEvents' });
  return async () => {
    const complete = new Promise((resolve) => browserSession.once('Tracing.tracingComplete', resolve));
    await browserSession.send('Tracing.end');
    await complete;
    browserSession.off('Tracing.dataCollected', collect);
    await writeFile(`${prefix}-${name}.json`, JSON.stringify({ traceEvents: events }));
  };
}

/**
 * Waits until the server is idle (under 5 % of a core over half a second; at most 2 minutes).
 * Cutdesk's upload registers the clip, and the server's media jobs (thumbnail, proxy, CRC-32)
 * then run on the same two cores: without this wait, whichever kind ran after Cutdesk uploaded
 * while those jobs ran.
 */
async function serverSettled(serverPid: number): Promise<void> {
  const started = Date.now();
  for (let before = await serverTicks(serverPid); Date.now() < started + 120_000;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = await serverTicks(serverPid);
    if ((now.all - before.all) / CLOCK_TICKS / 0.5 < 0.05) break;
    before = now;
  }
  if (Date.now() - started > 1000) console.error(`  waited ${round1((Date.now() - started) / 1000)} s for the server to settle`);
}

/**
 * BENCH_SCREENSHOT=prefix: a PNG of the page 2 s into each run, `<prefix>-<kind>-<round>.png`,
 * to see what each page draws while it uploads. It costs the renderer a capture: not for runs
 * whose CPU is compared.
 */
async function screenshotMidway(page: Page, name: string): Promise<void> {
  const prefix = process.env.BENCH_SCREENSHOT;
  if (!prefix) return;
  await new Promise((resolve) => setTimeout(resolve, 2000));
  await page.screenshot({ path: `${prefix}-${name}.png` }).catch(() => undefined);
}

async function timedRun(setup: Setup, cdp: CDPSession, serverPid: number, storeBase: string | null, name: string) {
  await serverSettled(serverPid);
  const sampler = sampleBrowser(cdp);
  const stopProfile = await profilePage(setup.page, cdp, name);
  const stopTrace = await traceBrowser(cdp, name);
  await sampler.begin();
  const serverBefore = await serverTicks(serverPid);
  const serverThreadsBefore = await threadTicks(serverPid);
  const store = storeBase ? await watchStore(storeBase) : null;
  const started = performance.now();
  const startedEpoch = Date.now();
  const shot = screenshotMidway(setup.page, name);
  await setup.start(store?.allReceived);
  const seconds = (performance.now() - started) / 1000;
  // After the clock stopped: a run shorter than the screenshot's 2 s is not timed longer.
  await shot;
  await stopProfile();
  await stopTrace();
  const storeTimes = (await store?.stop()) ?? { firstByte: NaN, lastByte: NaN };
  const figures = await sampler.end();
  const serverAfter = await serverTicks(serverPid);
  const serverThreadsAfter = await threadTicks(serverPid);
  /** The server's CPU seconds per GiB by thread name (the event loop, libuv's pool, PGlite's thread, V8's). */
  const serverThreads = Object.fromEntries(
    [...serverThreadsAfter]
      .map(([name, ticks]) => [name, round2((ticks - (serverThreadsBefore.get(name) ?? 0)) / CLOCK_TICKS / (SIZE / GiB))] as const)
      .filter(([, seconds]) => seconds >= 0.05),
  );
  // No part timings when the parts went from a shared worker (DevTools shows the page none of them).
  const lastAnswer = setup.parts.length ? Math.max(...setup.parts.map((part) => part.answered)) : NaN;
  return {
    seconds: round2(seconds),
    mbPerSecond: round1(SIZE / MiB / seconds),
    secondsAfterLastPart: round2((startedEpoch + seconds * 1000 - lastAnswer) / 1000),
    /** Start to the store's first bytes, and the store's last bytes to done (±20 ms). */
    secondsToFirstByte: round2(storeTimes.firstByte),
    secondsAfterLastByte: round2(seconds - storeTimes.lastByte),
    partRequests: setup.parts.length,
    maxPartsInFlight: partsInFlight(setup.parts).max,
    meanPartsInFlight: partsInFlight(setup.parts).mean,
    rendererPeakMiB: Math.round(figures.rendererPeakBytes / MiB),
    rendererIdleMiB: Math.round(figures.rendererIdleBytes / MiB),
    rendererPrivatePeakMiB: Math.round(figures.rendererPrivatePeakBytes / MiB),
    rendererPrivateIdleMiB: Math.round(figures.rendererPrivateIdleBytes / MiB),
    serverCpuSecondsPerGiB: round2((serverAfter.all - serverBefore.all) / CLOCK_TICKS / (SIZE / GiB)),
    /** Share of the upload's time the server's event loop thread was on a core (1 = saturated). */
    serverMainThreadBusy: round2((serverAfter.main - serverBefore.main) / CLOCK_TICKS / seconds),
    browserPeakMiB: Math.round(figures.browserPeakBytes / MiB),
    rendererCpuSecondsPerGiB: round2(figures.rendererCpuSeconds / (SIZE / GiB)),
    browserCpuSecondsPerGiB: round2(figures.browserCpuSeconds / (SIZE / GiB)),
    /**
     * The server's and the whole browser's CPU over the machine's cores for the run's time: near
     * 1, the upload is bound by the machine's CPU, whatever the client does with its connections.
     */
    machineCpuShare: round2(((serverAfter.all - serverBefore.all) / CLOCK_TICKS + figures.browserCpuSeconds) / (availableParallelism() * seconds)),
    rendererThreads: figures.rendererThreads,
    serverThreads,
  };
}

export async function benchUploadBrowser(): Promise<Record<string, unknown>> {
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const servers: ChildProcess[] = [];
  // Stopped from outside: the servers go too (they are processes of their own).
  const stop = () => {
    for (const server of servers) server.kill('SIGTERM');
    process.exit(1);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let pages: ReturnType<typeof pageServer> | null = null;
  try {
    const file = join(work, 'clip.mp4');
    const webDir = process.env.BENCH_WEB_DIR ?? join(root, '.tmp', 'upload-bench-web');
    const pagesDir = join(root, '.tmp', 'upload-bench-pages');
    await Promise.all([
      makeClip(file, SIZE),
      buildPages(pagesDir),
      process.env.BENCH_WEB_DIR
        ? Promise.resolve()
        : run(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', webDir, '--emptyOutDir', '--logLevel', 'warn']),
    ]);
    const dataBefore = join(root, '.tmp', 'upload-bench-before');
    const dataAfter = join(root, '.tmp', 'upload-bench-after');
    await Promise.all([rm(dataBefore, { recursive: true, force: true }), rm(dataAfter, { recursive: true, force: true })]);
    console.error('file and pages ready; starting the servers');
    servers.push(await startServer(dataBefore, webDir, PORT_BEFORE, 'off'));
    servers.push(await startServer(dataAfter, webDir, PORT, String(STORE_PORT)));
    const before = await api(`http://${HOST}:${PORT_BEFORE}`);
    const after = await api(`http://${HOST}:${PORT}`);
    let base: Api | null = null;
    if (KINDS.includes('cutdesk-base')) {
      const baseWebDir = process.env.BENCH_BASE_WEB_DIR;
      if (!baseWebDir) throw new Error('cutdesk-base serves the build BENCH_BASE_WEB_DIR names');
      const dataBase = join(root, '.tmp', 'upload-bench-base');
      await rm(dataBase, { recursive: true, force: true });
      servers.push(await startServer(dataBase, baseWebDir, PORT_BASE, String(STORE_PORT_BASE)));
      base = await api(`http://${HOST}:${PORT_BASE}`);
    }
    /** The server a kind uploads to: its process and API. */
    const serverOf = (kind: Kind): [ChildProcess, Api] =>
      kind === 'cutdesk-s3-path' ? [servers[0]!, before] : kind === 'cutdesk-base' ? [servers[2]!, base!] : [servers[1]!, after];
    const keys = JSON.parse(await readFile(join(dataAfter, 's3-credentials.json'), 'utf8')) as { accessKeyId: string; secretAccessKey: string };
    const s3 = new S3Client({
      endpoint: `http://${HOST}:${STORE_PORT}`,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: keys,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    pages = pageServer(pagesDir, s3, 'cutdesk-media');
    await new Promise<void>((resolve) => pages!.server.listen(PAGE_PORT, HOST, () => resolve()));

    const setUp = (kind: Kind, round: number) =>
      kind.startsWith('cutdesk') ? setUpCutdesk(file, serverOf(kind)[1], round, kind) : setUpPeer(file, kind as Peer, pages!, after, round);

    const runs: Record<string, Awaited<ReturnType<typeof timedRun>>[]> = {};
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const kind of KINDS) {
        console.error(`round ${round} ${kind}: setting up`);
        const setup = await setUp(kind, round);
        try {
          const cdp = await setup.browser.newBrowserCDPSession();
          const [server, target] = serverOf(kind);
          const figures = await timedRun(setup, cdp, server.pid!, kind === 'cutdesk-s3-path' ? null : target.base, `${kind}-${round}`);
          (runs[kind] ??= []).push(figures);
          console.error(`round ${round} ${kind}: ${JSON.stringify(figures)}`);
        } catch (error) {
          console.error(`round ${round} ${kind} failed: ${(error as Error).message}`);
        } finally {
          await setup.forget?.();
          await setup.browser.close();
        }
      }
    }

    // A reload at 50 %, counted at the store's own listener.
    const reloads: Record<string, number[]> = {};
    if (!process.env.BENCH_SKIP_RELOAD) {
      for (let round = 1; round <= ROUNDS; round += 1) {
        for (const kind of ['cutdesk', 'uppy6-golden-retriever'] as const) {
          const setup =
            kind === 'cutdesk' ? await setUpCutdesk(file, after, 10 + round, 'reload') : await setUpPeer(file, 'uppy6', pages, after, 10 + round, true);
          try {
            const receivedBefore = await storeReceivedBytes(after.base);
            if (!Number.isFinite(receivedBefore)) throw new Error("the store listener's byte counter is not in /metrics");
            const uploading = setup.start();
            uploading.catch(() => undefined);
            const deadline = Date.now() + RUN_TIMEOUT_MS;
            while ((await storeReceivedBytes(after.base)) - receivedBefore < SIZE / 2) {
              if (Date.now() > deadline) throw new Error('50 % was not reached in time');
              await new Promise((resolve) => setTimeout(resolve, 100));
            }
            console.error(`reload ${round} ${kind}: reloading at ${round1(((await storeReceivedBytes(after.base)) - receivedBefore) / MiB)} MiB received`);
            await setup.resumeAfterReload();
            await uploading;
            const resent = (await storeReceivedBytes(after.base)) - receivedBefore - SIZE;
            (reloads[kind] ??= []).push(round1(resent / MiB));
            console.error(`reload ${round} ${kind}: ${round1(resent / MiB)} MiB received beyond the file`);
          } catch (error) {
            console.error(`reload ${round} ${kind} failed: ${(error as Error).message}`);
          } finally {
            await setup.forget?.();
            await setup.browser.close();
          }
        }
      }
    }
    // The browser killed at 50 % (a crash, a power cut), started again on the same profile.
    const kills: Record<string, number[]> = {};
    if (!process.env.BENCH_SKIP_KILL) {
      for (let round = 1; round <= ROUNDS; round += 1) {
        for (const kind of ['cutdesk', 'uppy6-golden-retriever'] as const) {
          try {
            const resent = await killAt50Percent(kind, file, after, pages, 20 + round);
            (kills[kind] ??= []).push(round1(resent / MiB));
            console.error(`kill ${round} ${kind}: ${round1(resent / MiB)} MiB received beyond the file`);
          } catch (error) {
            console.error(`kill ${round} ${kind} failed: ${(error as Error).message}`);
          }
        }
      }
    }
    s3.destroy();

    const summary = (kind: Kind) => {
      const each = runs[kind] ?? [];
      return {
        mbPerSecond: spread(each.map((r) => r.mbPerSecond)),
        seconds: spread(each.map((r) => r.seconds)),
        secondsAfterLastPart: spread(each.map((r) => r.secondsAfterLastPart)),
        secondsToFirstByte: spread(each.map((r) => r.secondsToFirstByte)),
        secondsAfterLastByte: spread(each.map((r) => r.secondsAfterLastByte)),
        maxPartsInFlight: spread(each.map((r) => r.maxPartsInFlight)),
        meanPartsInFlight: spread(each.map((r) => r.meanPartsInFlight)),
        rendererPeakMiB: spread(each.map((r) => r.rendererPeakMiB)),
        rendererIdleMiB: spread(each.map((r) => r.rendererIdleMiB)),
        rendererPrivatePeakMiB: spread(each.map((r) => r.rendererPrivatePeakMiB)),
        rendererPrivateIdleMiB: spread(each.map((r) => r.rendererPrivateIdleMiB)),
        serverCpuSecondsPerGiB: spread(each.map((r) => r.serverCpuSecondsPerGiB)),
        serverMainThreadBusy: spread(each.map((r) => r.serverMainThreadBusy)),
        browserPeakMiB: spread(each.map((r) => r.browserPeakMiB)),
        rendererCpuSecondsPerGiB: spread(each.map((r) => r.rendererCpuSecondsPerGiB)),
        browserCpuSecondsPerGiB: spread(each.map((r) => r.browserCpuSecondsPerGiB)),
        machineCpuShare: spread(each.map((r) => r.machineCpuShare)),
      };
    };
    /** Per round, Cutdesk (store on its own port) against a peer of the same round: speed = peer's time ÷ ours (> 1: we are faster); memory and CPU = ours ÷ theirs (< 1: we use less). */
    const versus = (peer: Kind) => {
      const ours = runs.cutdesk ?? [];
      const theirs = runs[peer] ?? [];
      const n = Math.min(ours.length, theirs.length);
      const pairs = Array.from({ length: n }, (_, i) => [ours[i]!, theirs[i]!] as const);
      return {
        speed: spread(pairs.map(([a, b]) => b.seconds / a.seconds)),
        rendererPeakMemory: spread(pairs.map(([a, b]) => a.rendererPeakMiB / b.rendererPeakMiB)),
        rendererPrivatePeakMemory: spread(pairs.map(([a, b]) => a.rendererPrivatePeakMiB / b.rendererPrivatePeakMiB)),
        rendererCpuPerGiB: spread(pairs.map(([a, b]) => a.rendererCpuSecondsPerGiB / b.rendererCpuSecondsPerGiB)),
        browserCpuPerGiB: spread(pairs.map(([a, b]) => a.browserCpuSecondsPerGiB / b.browserCpuSecondsPerGiB)),
      };
    };
    return {
      file: `${Math.round(SIZE / MiB)} MiB (MP4 signature + random bytes) on local disk; ${ROUNDS} rounds, kinds interleaved, a fresh Chromium per run; 1 MB = 2^20 bytes`,
      kinds: Object.fromEntries(KINDS.map((kind) => [kind, summary(kind)])),
      ratios: Object.fromEntries(KINDS.filter((kind) => kind !== 'cutdesk').map((kind) => [`cutdesk vs ${kind}`, versus(kind)])),
      reloadAt50PercentMiBReceivedBeyondTheFile: Object.fromEntries(Object.entries(reloads).map(([kind, values]) => [kind, spread(values)])),
      browserKilledAt50PercentMiBReceivedBeyondTheFile: Object.fromEntries(Object.entries(kills).map(([kind, values]) => [kind, spread(values)])),
      runs,
    };
  } finally {
    if (pages) {
      pages.server.closeAllConnections();
      await new Promise((resolve) => pages!.server.close(resolve));
    }
    for (const server of servers) server.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchUploadBrowser(), null, 2));
