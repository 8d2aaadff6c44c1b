/**
 * bench/zip-browser (issue 14, "Zips"): in one run, with the real server and its embedded S3
 * store, in headless Chromium (Debian's), the same total bytes downloaded two ways:
 * (a) one large object through the browser's own download (a presigned link from
 *     `POST projects/{id}/links`, clicked as a plain link: the baseline), and
 * (b) a project's raw zip of the same total bytes through the product's path (staff project
 *     page, "Download raw zip"). Since issue 34 the server streams it (a plain download of
 *     `GET zips/{token}/…`); a build from before (ZIP_BROWSER_BUILDS) has the media worker write
 *     the archive, handed to the browser's downloads by /zip-download/sw.js, which fetches each
 *     clip itself once the server has computed the clips' CRC-32: the bench waits for those
 *     before it measures. `file` (the save picker's path) applies to such builds only: the raw
 *     zip no longer asks where to save (use BENCH_ZIP_BROWSER_KINDS=native,zip for a build since).
 * Figures per run: MB/s of both, the ratio (b)/(a), the renderer processes' resident memory
 * over idle (peak while downloading) and CPU seconds per Chromium process type and of the
 * server. Each zip is checked by Python's zipfile (names, sizes, every entry read so its CRC-32
 * is checked, CRCs compared with the ones computed when the clips were generated).
 *
 * Builds: `ZIP_BROWSER_BUILDS="before=.tmp/zip-before/dist,after=dist"` measures several builds
 * of the web app in the same run (the server restarts on the same data with each build's
 * WEB_DIR, rounds alternate the builds); default `current=dist`. The bench builds nothing.
 * `BENCH_ZIP_BROWSER_GIB` (default 2.5), `BENCH_ZIP_BROWSER_ROUNDS` (3), port
 * `BENCH_ZIP_BROWSER_PORT` (8246; the store's own listener takes the next port), data under `.tmp/zip-browser-bench`.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { crc32 } from 'node:zlib';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { generatedClip } from './zip/store.ts';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { chromiumBrowserPid, cpuSeconds, descendants, rendererIdleBytes, renderersMemory, threadSeconds } from './chromium-procs.ts';
import { apiCaller } from './api-call.ts';

const exec = promisify(execFile);
const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
const TOTAL = Math.round(Number(process.env.BENCH_ZIP_BROWSER_GIB ?? 2.5) * GiB);
const CLIP = 256 * MiB;
const ROUNDS = Number(process.env.BENCH_ZIP_BROWSER_ROUNDS ?? 3);
const PORT = Number(process.env.BENCH_ZIP_BROWSER_PORT ?? 8246);
const BASE = `http://localhost:${PORT}`;
const PASSWORD = 'bench-password';
const root = fileURLToPath(new URL('..', import.meta.url));
const WORK = resolve(root, '.tmp/zip-browser-bench');
const DATA_DIR = join(WORK, 'data');

interface Build {
  label: string;
  dir: string;
}

function builds(): Build[] {
  const spec = process.env.ZIP_BROWSER_BUILDS ?? 'current=dist';
  return spec.split(',').map((part) => {
    const [label, dir] = part.split('=') as [string, string];
    const full = resolve(root, dir);
    if (!existsSync(join(full, 'index.html'))) throw new Error(`no built app in ${full}: run npm run build (this bench builds nothing)`);
    return { label, dir: full };
  });
}

// ——— The server ———

async function startServer(webDir: string): Promise<ChildProcess> {
  const server = spawn(process.execPath, [join(root, 'server/main.ts')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR,
      WEB_DIR: webDir,
      DEMO_PASSWORD: PASSWORD,
      DEMO_VIDEOS: 'off',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_EMAIL: '100000',
      RATE_LIMIT_PER_IP: '1000000',
      MAX_EVENT_LOOP_DELAY_MS: '60000',
    },
  });
  let output = '';
  server.stdout!.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  server.stderr!.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (
      await fetch(`${BASE}/api/v1/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return server;
    if (server.exitCode !== null || Date.now() > deadline) break;
    await new Promise((done) => setTimeout(done, 200));
  }
  server.kill('SIGKILL');
  throw new Error(`the server did not start:\n${output}`);
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return;
  const exited = new Promise((done) => server.once('exit', done));
  server.kill('SIGTERM');
  await exited;
}

const call = apiCaller(BASE);

const login = (email: string) => call<{ token: string; organizationId: number | null }>('POST', '/login', undefined, { email, password: PASSWORD });

// ——— The clips: incompressible bytes that start like an MP4 (the store sniffs them at registration) ———

const FTYP = Buffer.from([0, 0, 0, 0x18, ...Buffer.from('ftypmp42'), 0, 0, 0, 0, ...Buffer.from('mp42isom')]);

/** `size` bytes of the zip bench's generated clip after an MP4 `ftyp` box, made as they are read, and their CRC-32 when read to the end. */
function clipBytes(size: number, seed: number): { stream: Readable; crc: () => number } {
  let crc = 0;
  const counting = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      crc = crc32(chunk, crc);
      done(null, chunk);
    },
  });
  return { stream: generatedClip(size, seed, FTYP).pipe(counting), crc: () => crc };
}

interface Creds {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  endpoint: string;
  bucket: string;
  region: string;
}

interface Clip {
  name: string;
  size: number;
  crc: number;
  assetId: number;
}

/** Puts a generated clip with the project's upload credentials (as the upload worker would) and registers it. */
async function uploadClip(token: string, projectId: number, type: 'InterviewClip' | 'BRollClip', name: string, size: number, seed: number): Promise<Clip> {
  const checked = await call<{ name: string; location: string }>(
    'GET',
    `/projects/${projectId}/assets/check-name?type=${type}&name=${encodeURIComponent(name)}`,
    token,
  );
  const creds = await call<Creds>('POST', '/uploads/credentials', token, { projectId, uploadType: 'asset' });
  const s3 = new S3Client({
    endpoint: creds.endpoint,
    region: creds.region,
    forcePathStyle: true,
    credentials: { accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey, sessionToken: creds.sessionToken },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const bytes = clipBytes(size, seed);
  await s3.send(
    new PutObjectCommand({ Bucket: creds.bucket, Key: checked.location, Body: bytes.stream, ContentLength: size, ContentType: 'video/mp4', IfNoneMatch: '*' }),
  );
  s3.destroy();
  const asset = await call<{ id: number }>('POST', `/projects/${projectId}/assets`, token, { name: checked.name, path: checked.location, type, size });
  return { name: checked.name, size, crc: bytes.crc(), assetId: asset.id };
}

interface Fixture {
  zipProject: number;
  zipClips: { path: string; size: number; crc: number }[];
  nativeProject: number;
  nativeAsset: number;
}

/** Two projects of Demo Studio: one with TOTAL bytes of clips (the zip), one with a single clip of TOTAL bytes (the baseline). Made once per data directory. */
async function fixture(): Promise<Fixture> {
  const file = join(WORK, 'fixture.json');
  if (existsSync(file)) {
    const saved = JSON.parse(await readFile(file, 'utf8')) as Fixture & { total: number };
    if (saved.total === TOTAL) return saved;
  }
  const owner = await login('owner@demo.cutdesk.test');
  const project = async (name: string) =>
    (
      await call<{ id: number }>('POST', `/organizations/${owner.organizationId}/projects`, owner.token, {
        name,
        audience: 'Bench',
        goal: 'Bench',
        finalVideoLength: '1-2 minutes',
        brief: 'Zip download bench.',
      })
    ).id;
  const zipProject = await project('Zip bench: clips');
  const zipClips: Fixture['zipClips'] = [];
  for (let i = 0, left = TOTAL; left > 0; i += 1) {
    const size = Math.min(CLIP, left);
    const type = i % 2 === 0 ? 'InterviewClip' : 'BRollClip';
    const clip = await uploadClip(owner.token, zipProject, type, `clip-${String(i).padStart(2, '0')}.mp4`, size, i + 1);
    zipClips.push({ path: `${type === 'InterviewClip' ? 'interviews' : 'b_roll'}/${clip.name}`, size, crc: clip.crc });
    left -= size;
  }
  const nativeProject = await project('Zip bench: one object');
  const one = await uploadClip(owner.token, nativeProject, 'InterviewClip', 'one.mp4', TOTAL, 99);
  const saved = { total: TOTAL, zipProject, zipClips, nativeProject, nativeAsset: one.assetId };
  await writeFile(file, JSON.stringify(saved, null, 2));
  return saved;
}

/** Waits until the server's media worker has computed the CRC-32 of every asset of `projectId` (job `asset.checksum`). */
async function checksumsKnown(token: string, projectId: number): Promise<void> {
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    const assets = await call<{ crc32: number | null }[]>('GET', `/projects/${projectId}/assets`, token);
    if (assets.every((asset) => typeof asset.crc32 === 'number')) return;
    if (Date.now() > deadline)
      throw new Error(`project ${projectId}: the clips' CRC-32 were not computed within 10 minutes (is ffmpeg installed? the media worker waits for it)`);
    await new Promise((done) => setTimeout(done, 500));
  }
}

// ——— Chromium's processes (bench/chromium-procs.ts) ———

/** Samples the renderers' summed RSS every 100 ms while `work` runs; CPU per process type from start to end. */
async function watch<T>(
  browserPid: number,
  serverPid: number,
  work: () => Promise<T>,
): Promise<{
  result: T;
  seconds: number;
  rendererPeakBytes: number;
  rendererPrivatePeakBytes: number;
  cpu: Record<string, number>;
  threads: Record<string, number>;
}> {
  const cpuOf = async () => {
    const out = new Map<number, { type: string; seconds: number }>();
    for (const proc of await descendants(browserPid)) out.set(proc.pid, { type: proc.type, seconds: await cpuSeconds(proc.pid) });
    out.set(serverPid, { type: 'server', seconds: await cpuSeconds(serverPid) });
    return out;
  };
  const threadsOf = async () => {
    const out = new Map<string, number>();
    for (const proc of await descendants(browserPid)) {
      for (const [name, seconds] of await threadSeconds(proc.pid)) out.set(`${proc.type}:${name}`, seconds);
    }
    return out;
  };
  const before = await cpuOf();
  const threadsBefore = await threadsOf();
  let peak = 0;
  let privatePeak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const sum = await renderersMemory(browserPid);
      peak = Math.max(peak, sum.rss);
      privatePeak = Math.max(privatePeak, sum.private);
      await new Promise((done) => setTimeout(done, 100));
    }
  })();
  const started = performance.now();
  try {
    const result = await work();
    const seconds = (performance.now() - started) / 1000;
    const after = await cpuOf();
    const threadsAfter = await threadsOf();
    const cpu: Record<string, number> = {};
    for (const [pid, { type, seconds: end }] of after) cpu[type] = (cpu[type] ?? 0) + end - (before.get(pid)?.seconds ?? 0);
    // The profile: CPU seconds by process type and thread name (threads of one name summed).
    const threads: Record<string, number> = {};
    for (const [key, end] of threadsAfter) {
      const name = key.replace(/#\d+$/, '');
      threads[name] = (threads[name] ?? 0) + end - (threadsBefore.get(key) ?? 0);
    }
    const top = Object.fromEntries(
      Object.entries(threads)
        .filter(([, seconds]) => seconds >= 0.1)
        .sort((a, b) => b[1] - a[1])
        .map(([name, seconds]) => [name, Math.round(seconds * 10) / 10]),
    );
    return { result, seconds, rendererPeakBytes: peak, rendererPrivatePeakBytes: privatePeak, cpu, threads: top };
  } finally {
    sampling = false;
    await sampler;
  }
}

// ——— One measurement: a fresh Chromium, staff signed in on the zip project's page ———

async function staffPage(context: BrowserContext, projectId: number): Promise<Page> {
  // Headless Chromium has the save picker but nobody to answer it: the zip takes the product's
  // other path, the streamed download (what browsers without the File System Access API get).
  await context.addInitScript('delete window.showSaveFilePicker;');
  const page = await context.newPage();
  if (process.env.BENCH_ZIP_BROWSER_DEBUG) page.on('console', (m) => console.error('page:', m.text()));
  await page.goto(`${BASE}/login`);
  await page.getByLabel('E-mail').fill('admin@demo.cutdesk.test');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/dashboard$/);
  await page.goto(`${BASE}/project/${projectId}`);
  await page.getByRole('button', { name: 'Download raw zip' }).waitFor({ timeout: 30_000 });
  await page.waitForTimeout(1_500);
  return page;
}

/** The downloaded zip against the clips: Python's zipfile reads every entry (so checks every CRC-32) and lists names, sizes and CRCs. */
async function verifyZip(file: string, clips: Fixture['zipClips']): Promise<string> {
  const script = `
import sys, zipfile, json
with zipfile.ZipFile(sys.argv[1]) as z:
    bad = z.testzip()
    print(json.dumps({"bad": bad, "entries": [[i.filename, i.file_size, i.CRC, i.compress_type] for i in z.infolist()]}))
`;
  const { stdout } = await exec('python3', ['-c', script, file], { maxBuffer: 16 * MiB });
  const read = JSON.parse(stdout) as { bad: string | null; entries: [string, number, number, number][] };
  if (read.bad) return `bad CRC in ${read.bad}`;
  const files = read.entries.filter(([name]) => !name.endsWith('/'));
  if (files.length !== clips.length) return `${files.length} files instead of ${clips.length}`;
  for (const clip of clips) {
    const entry = files.find(([name]) => name === clip.path);
    if (!entry) return `${clip.path} missing`;
    if (entry[1] !== clip.size || entry[2] !== clip.crc || entry[3] !== 0)
      return `${clip.path}: size ${entry[1]}, CRC ${entry[2]}, method ${entry[3]} instead of ${clip.size}, ${clip.crc}, stored`;
  }
  return 'ok';
}

interface Run {
  build: string;
  round: number;
  seconds: number;
  MBps: number;
  rendererOverIdleMiB: number;
  rendererPrivateOverIdleMiB: number;
  cpuSeconds: Record<string, number>;
  threadCpuSeconds: Record<string, number>;
  check?: string;
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * What is measured: `native` the baseline, `zip` the product's streamed download (the path of
 * browsers without the save picker), `file` the product's save-picker path (Chromium's: the
 * worker writes the picked file; here a file of the origin's private file system).
 */
type Kind = 'native' | 'zip' | 'file';
const KINDS: Kind[] = (process.env.BENCH_ZIP_BROWSER_KINDS ?? 'native,zip,file').split(',') as Kind[];

async function measurePhase(build: Build, round: number, fx: Fixture, adminToken: () => Promise<string>, serverPid: number): Promise<Record<Kind, Run>> {
  // A profile on disk of its own (not an incognito context, whose private file system lives in
  // memory under a small quota): the save-picker path writes a real file, as for a user.
  const userDataDir = join(WORK, 'profile');
  await rm(userDataDir, { recursive: true, force: true });
  const browser = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    acceptDownloads: true,
    viewport: { width: 1440, height: 900 },
  });
  const browserPid = await chromiumBrowserPid();
  try {
    const page = await staffPage(browser, fx.zipProject);
    const run = async (kind: Kind): Promise<Run> => {
      const idle = await rendererIdleBytes(browserPid);
      let link = '';
      if (kind === 'native')
        link = (
          await call<{ link: string }>('POST', `/projects/${fx.nativeProject}/links`, await adminToken(), {
            operationName: 'download',
            assetId: fx.nativeAsset,
            variant: 'original',
          })
        ).link;
      if (kind === 'file') {
        // The save picker's file, here one in the origin's private file system (as e2e/media.spec.ts does).
        await page.evaluate(
          `window.showSaveFilePicker = async ({ suggestedName }) => (await navigator.storage.getDirectory()).getFileHandle(suggestedName, { create: true });`,
        );
      }
      const message = page.getByTestId('zip-download-message');
      const measured = await watch(browserPid, serverPid, async () => {
        if (kind === 'file') {
          await page.getByRole('button', { name: 'Download raw zip' }).click();
          // The last zip's message goes at the click and comes back when this one is written.
          await message.waitFor({ state: 'detached', timeout: 10_000 });
          await message.waitFor({ timeout: 30 * 60_000 });
          return { download: null, path: await largestFile(join(userDataDir, 'Default', 'File System')) };
        }
        const [download] = await Promise.all([
          page.waitForEvent('download', { timeout: 120_000 }),
          kind === 'native'
            ? page.evaluate(
                `(() => { const a = document.createElement('a'); a.href = ${JSON.stringify(link)}; a.download = ''; document.body.append(a); a.click(); a.remove(); })()`,
              )
            : page.getByRole('button', { name: 'Download raw zip' }).click(),
        ]);
        const path = await download.path();
        const failure = await download.failure();
        if (failure) throw new Error(`${kind} download failed: ${failure}`);
        return { download, path };
      });
      const bytes = TOTAL;
      let check: string | undefined;
      if (kind !== 'native') {
        await message.waitFor({ timeout: 60_000 });
        const text = await message.innerText();
        check = measured.result.path ? await verifyZip(measured.result.path, fx.zipClips) : 'no file found';
        if (!/files/.test(text)) check = `${check}; page says "${text}"`;
      }
      if (kind === 'file') {
        await page.evaluate(
          `(async () => { for await (const name of (await navigator.storage.getDirectory()).keys()) await (await navigator.storage.getDirectory()).removeEntry(name); delete window.showSaveFilePicker; })()`,
        );
      } else await measured.result.download!.delete();
      return {
        build: build.label,
        round,
        seconds: round1(measured.seconds),
        MBps: round1(bytes / 1e6 / measured.seconds),
        rendererOverIdleMiB: Math.round((measured.rendererPeakBytes - idle.rss) / MiB),
        rendererPrivateOverIdleMiB: Math.round((measured.rendererPrivatePeakBytes - idle.private) / MiB),
        cpuSeconds: Object.fromEntries(
          Object.entries(measured.cpu)
            .filter(([, seconds]) => seconds >= 0.05)
            .map(([type, seconds]) => [type, round1(seconds)]),
        ),
        threadCpuSeconds: measured.threads,
        ...(check && { check }),
      };
    };
    // The order inside a phase alternates with the round, so none always goes first.
    const order = round % 2 === 1 ? KINDS : [...KINDS].reverse();
    const out: Partial<Record<Kind, Run>> = {};
    for (const kind of order) out[kind] = await run(kind);
    return out as Record<Kind, Run>;
  } finally {
    await browser.close();
  }
}

/** The largest file under `dir` (Chromium keeps an origin's private files as plain files in the profile). */
async function largestFile(dir: string): Promise<string | null> {
  let best: { path: string; size: number } | null = null;
  const { stat } = await import('node:fs/promises');
  const visit = async (path: string) => {
    for (const entry of await readdir(path, { withFileTypes: true }).catch(() => [])) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) await visit(full);
      else if (entry.isFile()) {
        const size = (await stat(full)).size;
        if (!best || size > best.size) best = { path: full, size };
      }
    }
  };
  await visit(dir);
  return (best as { path: string } | null)?.path ?? null;
}

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0]!, median: sorted[Math.floor(sorted.length / 2)]!, max: sorted.at(-1)! };
};

export async function benchZipBrowser(): Promise<Record<string, unknown>> {
  const list = builds();
  await mkdir(WORK, { recursive: true });
  let server = await startServer(list[0]!.dir);
  try {
    const fx = await fixture();
    await checksumsKnown((await login('owner@demo.cutdesk.test')).token, fx.zipProject);
    let token: { value: string; at: number } | null = null;
    const adminToken = async () => {
      if (!token || Date.now() - token.at > 5 * 60_000) token = { value: (await login('admin@demo.cutdesk.test')).token, at: Date.now() };
      return token.value;
    };
    const runs: Record<Kind, Run>[] = [];
    let current = list[0]!;
    for (let round = 1; round <= ROUNDS; round += 1) {
      // Builds alternate their order by round as well.
      const order = round % 2 === 1 ? list : [...list].reverse();
      for (const build of order) {
        if (build !== current) {
          await stopServer(server);
          server = await startServer(build.dir);
          token = null;
          current = build;
        }
        const phase = await measurePhase(build, round, fx, adminToken, server.pid!);
        console.error(JSON.stringify(phase));
        runs.push(phase);
      }
    }
    const summary: Record<string, unknown> = {};
    for (const build of list) {
      const mine = runs.filter((r) => r.native.build === build.label);
      const figures: Record<string, unknown> = {
        nativeMBps: stats(mine.map((r) => r.native.MBps)),
        nativeRendererOverIdleMiB: stats(mine.map((r) => r.native.rendererOverIdleMiB)),
        nativeRendererPrivateOverIdleMiB: stats(mine.map((r) => r.native.rendererPrivateOverIdleMiB)),
      };
      for (const kind of ['zip', 'file'] as const) {
        if (!KINDS.includes(kind)) continue;
        figures[`${kind}MBps`] = stats(mine.map((r) => r[kind].MBps));
        figures[`ratio ${kind} / native (same phase)`] = stats(mine.map((r) => round2(r[kind].MBps / r.native.MBps)));
        figures[`${kind}RendererOverIdleMiB`] = stats(mine.map((r) => r[kind].rendererOverIdleMiB));
        figures[`${kind}RendererPrivateOverIdleMiB`] = stats(mine.map((r) => r[kind].rendererPrivateOverIdleMiB));
        figures[`${kind}RendererCpuSecondsPerGiB`] = stats(mine.map((r) => round1((r[kind].cpuSeconds.renderer ?? 0) / (TOTAL / GiB))));
        figures[`${kind}Checks`] = mine.map((r) => r[kind].check);
      }
      summary[build.label] = figures;
    }
    return { totalMiB: Math.round(TOTAL / MiB), clips: `${Math.ceil(TOTAL / CLIP)} × ≤ ${CLIP / MiB} MiB`, summary, runs };
  } finally {
    await stopServer(server);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchZipBrowser(), null, 2));
