/**
 * bench/download-ceiling (issue 14, "Zips"): how fast Chromium can write a download to disk by
 * each way a zip made on the device can take, with no zip and no JavaScript per byte, against
 * the browser's own download of the same bytes in the same run. It says what the zip paths can
 * reach at best on this machine:
 * - `plain`: a plain `<a download>` of the bytes, as a server-streamed file is downloaded:
 *   the baseline (issue 34: the first version's baseline was `attachment` below, which a plain
 *   `<a download>` of the same bytes beat by 1.38–1.80×, so every ratio flattered the zips);
 * - `attachment`: a link to the bytes answered with `Content-Disposition: attachment`;
 * - `swMade`: a service worker that makes the bytes itself (no fetch), the best a download made on
 *   the device and answered by a service worker could do;
 * - `swBody`: a service worker answers the download with a fetch's body as it is
 *   (`new Response(response.body)`): the service-worker hop of the streamed zip, with nothing
 *   of ours in it;
 * - `swJs`: the same with the body read in JavaScript and enqueued chunk by chunk into the
 *   answer's stream (what /zip-download/sw.js does with an entry it fetches);
 * - `filePipe`: a fetch's body piped into a file of the origin's private file system
 *   (`createWritable`, the save picker's path) from the page.
 * The bytes come from a plain Node HTTP server in this process (1 MiB blocks of one value), so
 * the store costs nothing here. Also the renderers' private memory (anonymous resident + swap)
 * at its peak during each way over the same sum just before it. `BENCH_CEILING_GIB` (default 1), `BENCH_CEILING_ROUNDS` (3),
 * port `BENCH_CEILING_PORT` (8392); the profile is on disk under `.tmp/download-ceiling` (a
 * private file system in an incognito profile lives in memory).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { chromiumBrowserPid, rendererIdleBytes, renderersMemory } from './chromium-procs.ts';

const GiB = 1024 ** 3;
const SIZE = Math.round(Number(process.env.BENCH_CEILING_GIB ?? 1) * GiB);
const ROUNDS = Number(process.env.BENCH_CEILING_ROUNDS ?? 3);
const PORT = Number(process.env.BENCH_CEILING_PORT ?? 8392);
const PROFILE = fileURLToPath(new URL('../.tmp/download-ceiling', import.meta.url));

const PAGE = `<!doctype html><title>ceiling</title><script>navigator.serviceWorker.register('/sw.js', { scope: '/' });</script>`;

/** The service worker of the `sw…` ways: /dl/made, /dl/body and /dl/js. */
const SERVICE_WORKER = `
const SIZE = ${SIZE};
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
const headers = { 'Content-Type': 'application/octet-stream', 'Content-Disposition': 'attachment; filename="bytes.bin"' };
self.addEventListener('fetch', (event) => {
  const path = new URL(event.request.url).pathname;
  if (path === '/dl/made') {
    const block = new Uint8Array(1024 * 1024).fill(7);
    let left = SIZE;
    const stream = new ReadableStream({
      pull(controller) {
        if (left <= 0) return controller.close();
        const n = Math.min(left, block.length);
        left -= n;
        controller.enqueue(n === block.length ? block.slice() : block.slice(0, n));
      },
    }, new CountQueuingStrategy({ highWaterMark: 4 }));
    return event.respondWith(new Response(stream, { headers: { ...headers, 'Content-Length': String(SIZE) } }));
  }
  if (path !== '/dl/body' && path !== '/dl/js') return;
  event.respondWith((async () => {
    const response = await fetch('/bytes');
    if (path === '/dl/body') return new Response(response.body, { headers });
    const reader = response.body.getReader();
    const stream = new ReadableStream({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
    }, new CountQueuingStrategy({ highWaterMark: 4 }));
    return new Response(stream, { headers });
  })());
});`;

function bytesServer(): Promise<Server> {
  const block = Buffer.alloc(1024 * 1024, 7);
  const server = createServer((request, response) => {
    const url = request.url ?? '/';
    if (url === '/') return response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    if (url === '/sw.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(SERVICE_WORKER);
    if (!url.startsWith('/bytes')) return response.writeHead(404).end();
    response.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': SIZE,
      ...(url.includes('attach') && { 'content-disposition': 'attachment; filename="bytes.bin"' }),
    });
    let left = SIZE;
    const write = () => {
      while (left > 0) {
        const n = Math.min(left, block.length);
        left -= n;
        if (!response.write(n === block.length ? block : block.subarray(0, n))) return void response.once('drain', write);
      }
      response.end();
    };
    write();
  });
  return new Promise((resolve) => server.listen(PORT, '127.0.0.1', () => resolve(server)));
}

type Way = 'plain' | 'attachment' | 'swMade' | 'swBody' | 'swJs' | 'filePipe';
const WAYS: Way[] = ['plain', 'attachment', 'swMade', 'swBody', 'swJs', 'filePipe'];

/** The renderers' private memory at its peak while `work` runs, over the same just before it, in MiB. */
async function privatePeakOverIdle(browserPid: number, work: () => Promise<number>): Promise<{ seconds: number; overIdleMiB: number }> {
  const idle = await rendererIdleBytes(browserPid);
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, (await renderersMemory(browserPid)).private);
      await new Promise((done) => setTimeout(done, 100));
    }
  })();
  try {
    const seconds = await work();
    return { seconds, overIdleMiB: Math.round((peak - idle.private) / 1024 ** 2) };
  } finally {
    sampling = false;
    await sampler;
  }
}

/** Seconds from the click (or the call) until the bytes are on disk. */
async function measure(page: Page, way: Way): Promise<number> {
  if (way === 'filePipe') {
    // As strings: the bench is type-checked for Node, without the DOM's types.
    return page.evaluate<number>(`(async () => {
      const folder = await navigator.storage.getDirectory();
      const handle = await folder.getFileHandle('bytes.bin', { create: true });
      const started = performance.now();
      const body = (await fetch('/bytes')).body;
      await body.pipeTo(await handle.createWritable());
      const seconds = (performance.now() - started) / 1000;
      await folder.removeEntry('bytes.bin');
      return seconds;
    })()`);
  }
  const href = { plain: '/bytes', attachment: '/bytes?attach', swMade: '/dl/made', swBody: '/dl/body', swJs: '/dl/js' }[way];
  const started = Date.now();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.evaluate(
      `(() => { const a = document.createElement('a'); a.href = ${JSON.stringify(href)}; ${way === 'plain' ? "a.download = 'bytes.bin';" : ''} a.click(); })()`,
    ),
  ]);
  await download.path();
  const seconds = (Date.now() - started) / 1000;
  await download.delete();
  return seconds;
}

export async function benchDownloadCeiling(): Promise<Record<string, unknown>> {
  const server = await bytesServer();
  await rm(PROFILE, { recursive: true, force: true });
  const context = await chromium.launchPersistentContext(PROFILE, { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, acceptDownloads: true });
  try {
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
    // Controlled by the service worker from here on.
    await page.reload();
    const browserPid = await chromiumBrowserPid();
    const each = () => Object.fromEntries(WAYS.map((way) => [way, [] as number[]])) as Record<Way, number[]>;
    const MBps = each();
    const ratios = each();
    const memory = each();
    for (let round = 0; round < ROUNDS; round += 1) {
      // Each round in another order, so no way always follows the same one.
      const order = WAYS.map((_, i) => WAYS[(i + round) % WAYS.length]!);
      const seconds = {} as Record<Way, number>;
      for (const way of order) {
        const measured = await privatePeakOverIdle(browserPid, () => measure(page, way));
        seconds[way] = measured.seconds;
        memory[way].push(measured.overIdleMiB);
      }
      for (const way of WAYS) {
        MBps[way].push(Math.round(SIZE / 1e6 / seconds[way]));
        ratios[way].push(Math.round((seconds.plain / seconds[way]) * 100) / 100);
      }
    }
    const stats = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return { min: sorted[0], median: sorted[Math.floor(sorted.length / 2)], max: sorted.at(-1) };
    };
    return {
      MiB: SIZE / 1024 ** 2,
      rounds: ROUNDS,
      MBps: Object.fromEntries(WAYS.map((way) => [way, stats(MBps[way])])),
      'speed ÷ plain <a download>, same round': Object.fromEntries(WAYS.filter((way) => way !== 'plain').map((way) => [way, stats(ratios[way])])),
      'renderers private memory over idle, MiB': Object.fromEntries(WAYS.map((way) => [way, stats(memory[way])])),
    };
  } finally {
    await context.close();
    await new Promise((done) => server.close(done));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchDownloadCeiling(), null, 2));
