/**
 * `node bench/upload-engine-reload.ts [rounds]` (issue 14, "Less sent twice after a reload" and
 * "the browser's hot path"): the web app as it was before (the build of `BEFORE_REF`, default
 * main's, from `git archive`) against the working tree's, in the same run, in real Chromium, each
 * served by a real server of its own (embedded store, PGlite), alternating per round. The page
 * is on the server's own address and its uploads go to a store on another origin, as with the
 * store on its own port (issue 14): the counting pass-through proxy
 * (bench/upload-engine/counting-proxy.ts), named by S3_PUBLIC_ENDPOINT, in front of the
 * server's `/s3`. (With the store under the page's origin, five parts and the live-updates
 * stream hold all six HTTP/1.1 connections, and the reload's own request waits until parts
 * end: how many were cut then depends on where they stood, not on the worker.)
 *
 * - **reload**: an 11-part clip (20 MiB parts) through the project page, parts read at 6 MB/s
 *   each; when the store has received 50 % of the bytes (42 % and 58 % in the next rounds) the
 *   page reloads, the same file is picked again, the upload ends. Figure: MiB of part bodies the store received beyond the file's size (cut requests
 *   count what arrived).
 * - **cpu**: a 512 MiB clip unthrottled, no reload. Figures: CPU seconds per GiB of Chromium's
 *   renderer processes (the page and its upload worker) and of the whole browser
 *   (SystemInfo.getProcessInfo), and the renderers' peak resident memory (/proc, sampled every
 *   200 ms).
 *
 * Every object's SHA-256 is checked against the source. Ports: BENCH_PORT to BENCH_PORT + 5
 * when set (each server and its store on the next port, then the two proxies), else free ones
 * the system picks; data under .tmp/upload-engine-bench. Figures are min / median / max; the
 * ratios are per round.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { PART_SIZE } from '../src/domain/uploads.ts';
import { freePort } from './free-port.ts';
import { startCountingProxy, type CountingProxy } from './upload-engine/counting-proxy.ts';

const ROOT = resolve(import.meta.dirname, '..');
const WORK = resolve(ROOT, '.tmp/upload-engine-bench');
const ROUNDS = Number(process.argv[2] ?? 3);
// The web app before the SharedWorker change: main's (a dedicated upload worker, each part's IndexedDB write awaited in its slot).
const BEFORE_REF = process.env.BEFORE_REF ?? 'main';
const BEFORE_COMMIT = execFileSync('git', ['rev-parse', '--short', BEFORE_REF], { cwd: import.meta.dirname })
  .toString()
  .trim();
const RELOAD_BYTES = 10 * PART_SIZE + 12_345;
const CPU_BYTES = 512 * 2 ** 20;
const MiB = 2 ** 20;
const GiB = 2 ** 30;
/** An ISO-BMFF `ftyp` box: the server registers a clip only when its bytes start like a video (as tests/support/file-fixtures.ts). */
const MP4_FTYP = Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex');
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface Variant {
  name: 'before' | 'after';
  dist: string;
  port: number;
  s3Port: number;
  proxyPort: number;
  server?: ChildProcess;
  proxy?: CountingProxy;
}

async function makeClip(bytes: number): Promise<{ path: string; sha: string }> {
  const path = resolve(WORK, `clip-${bytes}.mp4`);
  const hash = createHash('sha256');
  if ((await stat(path).catch(() => null))?.size === bytes) {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
    return { path, sha: hash.digest('hex') };
  }
  const out = createWriteStream(path);
  for (let written = 0; written < bytes; written += 4 * MiB) {
    const chunk = randomBytes(Math.min(4 * MiB, bytes - written));
    if (written === 0) MP4_FTYP.copy(chunk, 0);
    hash.update(chunk);
    if (!out.write(chunk)) await new Promise<void>((done) => out.once('drain', () => done()));
  }
  await new Promise<void>((done) => out.end(() => done()));
  return { path, sha: hash.digest('hex') };
}

/** The web app of `BEFORE_REF`, built once into WORK/before-dist (its sources from git archive). */
function buildBefore(): string {
  const dist = resolve(WORK, `before-dist-${BEFORE_COMMIT}`);
  if (existsSync(resolve(dist, 'index.html'))) return dist;
  const src = resolve(WORK, 'before-src');
  rmSync(src, { recursive: true, force: true });
  mkdirSync(src, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${BEFORE_COMMIT} | tar -x -C ${src}`], { cwd: ROOT });
  symlinkSync(resolve(ROOT, 'node_modules'), resolve(src, 'node_modules'));
  console.log(`building ${BEFORE_REF}'s web app…`);
  execFileSync(resolve(ROOT, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn', '--outDir', dist], { cwd: src, stdio: 'inherit' });
  return dist;
}

function buildAfter(): string {
  const dist = resolve(WORK, 'after-dist');
  console.log('building the working tree’s web app…');
  execFileSync(resolve(ROOT, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn', '--outDir', dist], { cwd: ROOT, stdio: 'inherit' });
  return dist;
}

async function startServer(variant: Variant): Promise<void> {
  const dataDir = resolve(WORK, `data-${variant.name}`);
  rmSync(dataDir, { recursive: true, force: true });
  variant.proxy = await startCountingProxy({ target: `http://localhost:${variant.port}`, port: variant.proxyPort });
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(variant.port),
      S3_PORT: String(variant.s3Port),
      S3_PUBLIC_ENDPOINT: `${variant.proxy.origin}/s3`,
      DATA_DIR: dataDir,
      WEB_DIR: variant.dist,
      DEMO_PASSWORD: 'demo-password',
      DEMO_VIDEOS: 'off',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_EMAIL: '1000',
      RATE_LIMIT_PER_IP: '100000',
      MAX_EVENT_LOOP_DELAY_MS: '60000',
      MEDIA_CONCURRENCY: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  variant.server = child;
  for (let i = 0; i < 600; i += 1) {
    const ok = await fetch(`http://localhost:${variant.port}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((done) => setTimeout(done, 250));
  }
}

async function api<T>(variant: Variant, path: string, body: object, token?: string): Promise<T> {
  const response = await fetch(`http://localhost:${variant.port}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function openProject(browser: Browser, variant: Variant): Promise<{ page: Page; projectId: number; token: string }> {
  const owner = await api<{ token: string; organizationId: number }>(variant, '/login', { email: 'owner@demo.cutdesk.test', password: 'demo-password' });
  const { id: projectId } = await api<{ id: number }>(
    variant,
    `/organizations/${owner.organizationId}/projects`,
    { name: `Bench ${Date.now().toString(36)}`, audience: 'Investors', goal: 'Raise the round', finalVideoLength: '1-2 minutes', brief: 'Upload benchmark.' },
    owner.token,
  );
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(
    ([t, o]) => {
      localStorage.setItem('cutdesk.token', JSON.stringify(t));
      localStorage.setItem('cutdesk.orgId', JSON.stringify(o));
    },
    [owner.token, owner.organizationId] as const,
  );
  await page.goto(`http://localhost:${variant.port}/user/project/${projectId}`);
  await page.getByTestId('asset-section-INTERVIEW_CLIP').waitFor();
  return { page, projectId, token: owner.token };
}

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

async function storedSha(variant: Variant, projectId: number, token: string): Promise<string> {
  const assets = (await (
    await fetch(`http://localhost:${variant.port}/api/v1/projects/${projectId}/assets?type=InterviewClip`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { url: string }[];
  const hash = createHash('sha256');
  const body = (await fetch(assets[0]!.url)).body!;
  for await (const chunk of body) hash.update(chunk);
  return hash.digest('hex');
}

const assetShown = (page: Page) =>
  page
    .getByTestId('asset-tile')
    .count()
    .then((n) => n === 1);

/**
 * Where the reload lands, as a share of the file's bytes received, per round (the same for both
 * builds of a round): the parts in flight move in near lockstep, so a single point would always
 * cut them at the same phase.
 */
const RELOAD_AT = [0.5, 0.42, 0.58];

async function reloadRound(variant: Variant, clip: { path: string; sha: string }, at: number): Promise<{ resent: number; inFlight: number; cut: number }> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  try {
    const proxy = variant.proxy!;
    proxy.parts.length = 0;
    proxy.setRate(6_000_000);
    const { page, projectId, token } = await openProject(browser, variant);
    await page.getByTestId('upload-input-INTERVIEW_CLIP').setInputFiles(clip.path);
    await waitUntil(() => proxy.partBytes() >= at * RELOAD_BYTES, 180_000, `${Math.round(at * 100)} % of the bytes`);
    const inFlight = proxy.inFlight().length;
    page.once('dialog', (dialog) => void dialog.accept());
    await page.reload();
    await page.getByTestId('pending-tile').and(page.locator('[data-upload-status="incomplete"]')).waitFor({ timeout: 60_000 });
    await page.getByTestId('upload-input-INTERVIEW_CLIP').setInputFiles(clip.path);
    await waitUntil(() => assetShown(page), 300_000, 'the asset');
    if ((await storedSha(variant, projectId, token)) !== clip.sha) throw new Error(`${variant.name}: stored object differs from the source`);
    return { resent: (proxy.partBytes() - RELOAD_BYTES) / MiB, inFlight, cut: proxy.parts.filter((part) => part.cut).length };
  } finally {
    await browser.close();
  }
}

const rendererRss = (pids: number[]) =>
  pids.reduce((sum, pid) => {
    try {
      const line = readFileSync(`/proc/${pid}/status`, 'utf8')
        .split('\n')
        .find((l) => l.startsWith('VmRSS:'));
      return sum + Number(line?.split(/\s+/)[1] ?? 0) * 1024;
    } catch {
      return sum;
    }
  }, 0);

async function cpuRound(
  variant: Variant,
  clip: { path: string; sha: string },
): Promise<{ rendererCpuPerGiB: number; browserCpuPerGiB: number; rendererPeakMiB: number }> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  try {
    variant.proxy!.setRate(undefined);
    const { page, projectId, token } = await openProject(browser, variant);
    const session = await browser.newBrowserCDPSession();
    const processes = async () => (await session.send('SystemInfo.getProcessInfo')).processInfo as { type: string; id: number; cpuTime: number }[];
    const cpu = (list: { type: string; cpuTime: number }[], type?: string) =>
      list.filter((p) => !type || p.type === type).reduce((sum, p) => sum + p.cpuTime, 0);
    const before = await processes();
    let peak = 0;
    const sampler = setInterval(() => {
      void processes().then(
        (list) => (peak = Math.max(peak, rendererRss(list.filter((p) => p.type === 'renderer').map((p) => p.id)))),
        () => undefined,
      );
    }, 200);
    await page.getByTestId('upload-input-INTERVIEW_CLIP').setInputFiles(clip.path);
    await waitUntil(() => assetShown(page), 600_000, 'the asset');
    clearInterval(sampler);
    const after = await processes();
    if ((await storedSha(variant, projectId, token)) !== clip.sha) throw new Error(`${variant.name}: stored object differs from the source`);
    // Processes that ended meanwhile are missing from `after`: their CPU is not counted (none should end).
    const gib = CPU_BYTES / GiB;
    return {
      rendererCpuPerGiB: (cpu(after, 'renderer') - cpu(before, 'renderer')) / gib,
      browserCpuPerGiB: (cpu(after) - cpu(before)) / gib,
      rendererPeakMiB: peak / MiB,
    };
  } finally {
    await browser.close();
  }
}

const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const f = (n: number) => Math.round(n * 100) / 100;
  return `${f(sorted[0]!)} / ${f(sorted[Math.floor(sorted.length / 2)]!)} / ${f(sorted[sorted.length - 1]!)}`;
};

mkdirSync(WORK, { recursive: true });
const base = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : null;
const port = async (offset: number) => (base === null ? freePort() : base + offset);
const variants: Variant[] = [
  { name: 'before', dist: buildBefore(), port: await port(0), s3Port: await port(1), proxyPort: await port(4) },
  { name: 'after', dist: buildAfter(), port: await port(2), s3Port: await port(3), proxyPort: await port(5) },
];
const reloadClip = await makeClip(RELOAD_BYTES);
const cpuClip = await makeClip(CPU_BYTES);
try {
  for (const variant of variants) await startServer(variant);
  const results: Record<string, { resent: number[]; rendererCpu: number[]; browserCpu: number[]; peak: number[] }> = {
    before: { resent: [], rendererCpu: [], browserCpu: [], peak: [] },
    after: { resent: [], rendererCpu: [], browserCpu: [], peak: [] },
  };
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const variant of round % 2 ? variants : [...variants].reverse()) {
      const { resent, inFlight, cut } = await reloadRound(variant, reloadClip, RELOAD_AT[(round - 1) % RELOAD_AT.length]!);
      const cpu = await cpuRound(variant, cpuClip);
      const r = results[variant.name]!;
      r.resent.push(resent);
      r.rendererCpu.push(cpu.rendererCpuPerGiB);
      r.browserCpu.push(cpu.browserCpuPerGiB);
      r.peak.push(cpu.rendererPeakMiB);
      console.log(
        `round ${round} ${variant.name}: re-sent ${resent.toFixed(1)} MiB (${inFlight} parts in flight at the reload, ${cut} cut); renderer CPU ${cpu.rendererCpuPerGiB.toFixed(2)} s/GiB, browser CPU ${cpu.browserCpuPerGiB.toFixed(2)} s/GiB, renderer peak RSS ${cpu.rendererPeakMiB.toFixed(0)} MiB`,
      );
    }
  }
  const ratio = (key: 'rendererCpu' | 'browserCpu' | 'peak') => spread(results.after![key].map((value, i) => value / results.before![key][i]!));
  console.log(
    JSON.stringify(
      {
        rounds: ROUNDS,
        before: `${BEFORE_REF} (${BEFORE_COMMIT})`,
        'MiB re-sent after a reload at 50 % (min / median / max)': { before: spread(results.before!.resent), after: spread(results.after!.resent) },
        'renderer CPU s per GiB': {
          before: spread(results.before!.rendererCpu),
          after: spread(results.after!.rendererCpu),
          'after ÷ before': ratio('rendererCpu'),
        },
        'whole browser CPU s per GiB': {
          before: spread(results.before!.browserCpu),
          after: spread(results.after!.browserCpu),
          'after ÷ before': ratio('browserCpu'),
        },
        'renderer peak RSS MiB': { before: spread(results.before!.peak), after: spread(results.after!.peak), 'after ÷ before': ratio('peak') },
      },
      null,
      2,
    ),
  );
} finally {
  for (const variant of variants) {
    await variant.proxy?.close();
    variant.server?.kill('SIGTERM');
  }
}
