import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { expect, test, type Page } from '@playwright/test';
import { E2E_SERVER_ENV } from './server-env.ts';
import { pngBytes } from '../tests/support/file-fixtures.ts';
import { EVERY_SCRIPT, missingScripts } from '../tests/support/pdf-scripts.ts';
import { ffprobe, generateClip } from '../tests/support/media.ts';
import { apiCaller } from '../bench/api-call.ts';

// Downloads stream to disk through the app's own service worker (src/shared/media/save-target.ts).
test.use({ serviceWorkers: 'allow' });

/**
 * Media and delivery end to end (issue 6), in Chromium against a real server of its own: the
 * server's ffmpeg waits behind a gate, so staff see the "being processed" message, and Send
 * to review disabled (issue 36), for certain before the media work goes on.
 */

const exec = promisify(execFile);
const PORT = Number(process.env.E2E_MEDIA_PORT ?? Number(process.env.E2E_PORT ?? 8181) + 17);
const BASE = `http://localhost:${PORT}`;
const WORK = resolve(`.tmp/e2e-media-${PORT}`);
const GATE = join(WORK, 'ffmpeg-may-run');
const BRIEF_TEXT = 'Open on the workshop, then close-ups of the spring collection. Logo at the end.';

let server: ChildProcess | null = null;

async function startServer(): Promise<void> {
  await rm(WORK, { recursive: true, force: true });
  const bin = join(WORK, 'bin');
  await mkdir(bin, { recursive: true });
  const real = execFileSync('sh', ['-c', 'command -v ffmpeg']).toString().trim();
  // `ffmpeg -version` answers at once (the worker finds ffmpeg); real work waits for the gate.
  await writeFile(
    join(bin, 'ffmpeg'),
    `#!/bin/sh\nfor a in "$@"; do [ "$a" = "-version" ] && exec "${real}" "$@"; done\nwhile [ ! -e "${GATE}" ]; do sleep 0.2; done\nexec "${real}" "$@"\n`,
  );
  await chmod(join(bin, 'ffmpeg'), 0o755);
  server = spawn(process.execPath, ['scripts/start.ts'], {
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, PORT: String(PORT), DATA_DIR: join(WORK, 'data'), ...E2E_SERVER_ENV },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      if ((await fetch(`${BASE}/api/v1/health`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the media e2e server did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
}

const call = apiCaller(BASE);

const login = (email: string) => call<{ token: string; organizationId: number | null }>('POST', '/login', undefined, { email, password: 'demo-password' });

interface Creds {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  endpoint: string;
  bucket: string;
  region: string;
  prefix: string;
}

/** Puts `bytes` straight into storage with the project's temporary credentials, as the upload worker does. */
async function putWithCredentials(
  token: string,
  projectId: number,
  uploadType: 'asset' | 'deliverable',
  key: (creds: Creds) => Promise<string> | string,
  bytes: Buffer,
  contentType: string,
): Promise<string> {
  const creds = await call<Creds>('POST', '/uploads/credentials', token, { projectId, uploadType });
  const s3 = new S3Client({
    endpoint: creds.endpoint,
    region: creds.region,
    forcePathStyle: true,
    credentials: { accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey, sessionToken: creds.sessionToken },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const target = await key(creds);
  await s3.send(new PutObjectCommand({ Bucket: creds.bucket, Key: target, Body: bytes, ContentType: contentType }));
  s3.destroy();
  return target;
}

async function uploadAsset(
  token: string,
  projectId: number,
  type: 'InterviewClip' | 'BRollClip' | 'Asset',
  name: string,
  bytes: Buffer,
  contentType: string,
): Promise<string> {
  const checked = await call<{ name: string; location: string }>(
    'GET',
    `/projects/${projectId}/assets/check-name?type=${type}&name=${encodeURIComponent(name)}`,
    token,
  );
  await putWithCredentials(token, projectId, 'asset', () => checked.location, bytes, contentType);
  await call('POST', `/projects/${projectId}/assets`, token, { name: checked.name, path: checked.location, type, size: bytes.length });
  return checked.name;
}

async function signIn(page: Page, email: string, staff: boolean) {
  await page.goto(`${BASE}${staff ? '/login' : '/login/user'}`);
  await page.getByLabel('E-mail').fill(email);
  if (staff) await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password').fill('demo-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(staff ? /\/dashboard$/ : /\/user\/projects$/);
}

/** Pictures of the key moments for a person to look at (E2E_SCREENSHOTS=<folder>). */
const snap = async (page: Page, name: string) => {
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: join(process.env.E2E_SCREENSHOTS, `${name}.png`), fullPage: true });
};

/** The project page's head (status, timer, Send to review) and the video under it, for a person to look at. */
const snapHead = async (page: Page, name: string) => {
  if (process.env.E2E_SCREENSHOTS)
    await page.screenshot({ path: join(process.env.E2E_SCREENSHOTS, `${name}.png`), clip: { x: 0, y: 0, width: 1440, height: 620 } });
};

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Every entry of a zip as Python's zipfile reads it (every CRC checked): its bytes' SHA-256 and compression. */
async function zipEntries(file: string): Promise<Record<string, [string, number]>> {
  const { stdout } = await exec('python3', [
    '-c',
    `
import sys, zipfile, hashlib, json
with zipfile.ZipFile(sys.argv[1]) as z:
    print(json.dumps({i.filename: (hashlib.sha256(z.read(i)).hexdigest(), i.compress_type) for i in z.infolist()}))
`,
    file,
  ]);
  return JSON.parse(stdout) as Record<string, [string, number]>;
}

test.describe.configure({ mode: 'serial' });
test.setTimeout(240_000);

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await startServer();
});
test.afterAll(async () => {
  server?.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await rm(WORK, { recursive: true, force: true });
});

test('final video: staff deliver, Send to review waits while it is processed, the customer plays it through HLS and downloads HD; staff download the raw zip (from the server), the proxy zip (made on the device) and the brief', async ({
  browser,
}) => {
  // ——— The customer's project, with footage, sent to editing; an editor assigned. ———
  const owner = await login('owner@demo.cutdesk.test');
  const created = await call<{ id: number }>('POST', `/organizations/${owner.organizationId}/projects`, owner.token, {
    name: 'Spring collection film',
    audience: 'Shoppers',
    goal: `Launch the collection ${EVERY_SCRIPT}`,
    finalVideoLength: '1-2 minutes',
    brief: BRIEF_TEXT,
  });
  const projectId = created.id;
  const footage = {
    interview: await generateClip({ seconds: 1, width: 320, height: 240 }),
    broll: await generateClip({ seconds: 1, width: 320, height: 180, audio: false }),
    // A real PNG: the server registers an image only when its bytes are one (issue 9).
    image: pngBytes(5000),
  };
  const names = {
    interview: await uploadAsset(owner.token, projectId, 'InterviewClip', 'founder talk.mp4', footage.interview, 'video/mp4'),
    broll: await uploadAsset(owner.token, projectId, 'BRollClip', 'workshop.mp4', footage.broll, 'video/mp4'),
    image: await uploadAsset(owner.token, projectId, 'Asset', 'logo.png', footage.image, 'image/png'),
  };
  await call('POST', `/projects/${projectId}/submit`, owner.token);
  const admin = await login('admin@demo.cutdesk.test');
  const editor = await login('editor@demo.cutdesk.test');
  const editorMe = await call<{ id: number }>('GET', '/me', editor.token);
  await call('POST', `/projects/${projectId}/assign-editor`, admin.token, { editorId: editorMe.id });

  // ——— Staff upload the generated final video (upload type deliverable) and register it. ———
  const finalVideo = await generateClip({ seconds: 4, width: 1280, height: 720 });
  const key = await putWithCredentials(admin.token, projectId, 'deliverable', (creds) => `${creds.prefix}final-cut.mp4`, finalVideo, 'video/mp4');
  await call('POST', `/projects/${projectId}/deliverable`, admin.token, { path: key.slice(0, key.lastIndexOf('/')), name: 'final-cut.mp4' });

  // ——— Staff send it to review from the project page. ———
  const staffContext = await browser.newContext({ acceptDownloads: true });
  // The streamed-download path (service worker): Playwright sees it as a download.
  await staffContext.addInitScript(() => {
    delete (window as unknown as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  const staff = await staffContext.newPage();
  await signIn(staff, 'admin@demo.cutdesk.test', true);
  await staff.goto(`${BASE}/project/${projectId}`);
  // Issue 36 (A§3 "enabled only when … a final video preview exists"): while ffmpeg waits the
  // video is being processed, and Send to review is disabled, saying why; once the preview is
  // made the open page learns it (a live update) and the button is enabled.
  const send = staff.getByRole('button', { name: 'Send to review' });
  await expect(staff.getByTestId('video-processing')).toContainText('being processed');
  await expect(staff.getByTestId('video-processing')).toContainText('ready in a few minutes');
  await expect(send).toBeDisabled();
  await expect(staff.getByTestId('send-to-review-hint')).toHaveText('Available once the final video is processed.');
  await expect(send).toHaveAttribute('title', 'Available once the final video is processed.');
  await snapHead(staff, 'issue36-send-to-review-before');
  await writeFile(GATE, 'go');
  await expect(send).toBeEnabled({ timeout: 120_000 });
  await expect(staff.getByTestId('send-to-review-hint')).toHaveCount(0);
  // The player has the cut too: it looks again when the project says the preview is ready.
  await expect(staff.getByTestId('video-player')).toBeVisible({ timeout: 2_000 });
  await snapHead(staff, 'issue36-send-to-review-after');
  await send.click();
  await expect(staff.getByTestId('project-status')).toHaveText('PENDING REVIEW');

  // ——— The customer: the cut sent to review plays, through the HLS stream. ———
  const customerContext = await browser.newContext({ acceptDownloads: true });
  // Chromium 156 plays HLS natively; most browsers (Firefox, older Chrome) do not, and get
  // hls.js: hide the native support so that path is the one exercised here.
  await customerContext.addInitScript(() => {
    const canPlayType = HTMLMediaElement.prototype.canPlayType;
    HTMLMediaElement.prototype.canPlayType = function (type: string) {
      return /mpegurl/i.test(type) ? '' : canPlayType.call(this, type);
    };
  });
  const customer = await customerContext.newPage();
  const segments: string[] = [];
  customer.on('request', (request) => {
    if (/\.ts(\?|$)/.test(new URL(request.url()).pathname + '?')) segments.push(request.url());
  });
  await signIn(customer, 'owner@demo.cutdesk.test', false);
  await customer.goto(`${BASE}/user/project/${projectId}`);
  const player = customer.getByTestId('video-player');
  await expect(player).toHaveAttribute('data-engine', 'hls.js', { timeout: 120_000 });
  await expect(customer.locator('.player-bar .version')).toHaveText('Version 01');
  await player.evaluate((video: HTMLVideoElement) => {
    video.muted = true;
    void video.play();
  });
  await expect.poll(() => player.evaluate((video: HTMLVideoElement) => video.currentTime), { timeout: 30_000 }).toBeGreaterThan(1);
  expect(segments.length).toBeGreaterThan(0);
  await snap(customer, 'customer-playing');
  await customer.getByRole('button', { name: '1.5×' }).click();
  expect(await player.evaluate((video: HTMLVideoElement) => video.playbackRate)).toBe(1.5);

  // ——— HD download from the card menu. ———
  await customer.goto(`${BASE}/user/projects`);
  const review = customer.getByRole('region', { name: 'Needs review' });
  await expect(async () => {
    await customer.reload();
    await review.getByRole('button', { name: 'Actions for Spring collection film' }).click();
    await expect(customer.getByRole('menuitem', { name: 'Download HD' })).toBeEnabled({ timeout: 1000 });
  }).toPass({ timeout: 120_000 });
  const [hd] = await Promise.all([customer.waitForEvent('download'), customer.getByRole('menuitem', { name: 'Download HD' }).click()]);
  expect(hd.suggestedFilename()).toBe('Spring_collection_film_HD.mp4');
  const hdFile = join(WORK, 'hd.mp4');
  await hd.saveAs(hdFile);
  const hdInfo = await ffprobe(hdFile);
  expect(hdInfo.videoCodec).toBe('h264');
  expect(Math.abs(hdInfo.duration - 4)).toBeLessThan(0.3);

  // ——— Staff: the raw zip, streamed by the server (issue 34): byte-identical entries in the right folders. ———
  // The originals' CRC-32s are the media worker's checksum jobs' (one not stored yet is computed
  // while streaming); Python's zipfile below checks every CRC.
  await expect
    .poll(async () => (await call<{ crc32: number | null }[]>('GET', `/projects/${projectId}/assets`, admin.token)).map((asset) => typeof asset.crc32), {
      timeout: 60_000,
    })
    .toEqual(['number', 'number', 'number']);
  await staff.reload();
  const zipRequests: string[] = [];
  staff.on('request', (request) => void zipRequests.push(new URL(request.url()).pathname));
  const [zip] = await Promise.all([staff.waitForEvent('download', { timeout: 60_000 }), staff.getByRole('button', { name: 'Download raw zip' }).click()]);
  expect(zip.suggestedFilename()).toBe(`project-${projectId}_raw_assets.zip`);
  const zipFile = join(WORK, 'raw.zip');
  await zip.saveAs(zipFile);
  await expect(staff.getByTestId('zip-download-message')).toContainText(`project-${projectId}_raw_assets.zip (3 files,`);
  await expect(staff.getByTestId('zip-download-message')).toContainText("your browser's downloads show its progress");
  await snap(staff, 'staff-raw-zip');
  // The browser downloads the archive from the server; the page fetched none of its files: no
  // original passed through the page or a worker (the player still streams the final video).
  expect(new URL(zip.url()).pathname).toBe(`/api/v1/zips/${new URL(zip.url()).pathname.split('/')[4]}/project-${projectId}_raw_assets.zip`);
  expect(zipRequests.filter((path) => path.includes('/raw/') || path.startsWith('/zip-download/'))).toEqual([]);
  const entries = await zipEntries(zipFile);
  expect(Object.keys(entries).sort()).toEqual(
    ['assets/', `assets/${names.image}`, 'b_roll/', `b_roll/${names.broll}`, 'interviews/', `interviews/${names.interview}`].sort(),
  );
  expect(entries[`interviews/${names.interview}`]).toEqual([sha(footage.interview), 0]);
  expect(entries[`b_roll/${names.broll}`]).toEqual([sha(footage.broll), 0]);
  expect(entries[`assets/${names.image}`]).toEqual([sha(footage.image), 0]);
  expect((await exec('unzip', ['-t', zipFile])).stdout).toContain('No errors detected');

  // ——— Staff: the proxy zip, made on this device by the media worker (streamed download). ———
  const assets = await expect
    .poll(async () => (await call<{ previewUrl: string | null }[]>('GET', `/projects/${projectId}/assets`, admin.token)).every((asset) => asset.previewUrl), {
      timeout: 60_000,
    })
    .toBe(true)
    .then(() => call<{ name: string; previewUrl: string }[]>('GET', `/projects/${projectId}/assets`, admin.token));
  const proxyOf = async (name: string) => sha(Buffer.from(await (await fetch(assets.find((asset) => asset.name === name)!.previewUrl)).arrayBuffer()));
  const proxyNames = { interview: names.interview.replace(/\.mp4$/, '_proxy.mp4'), broll: names.broll.replace(/\.mp4$/, '_proxy.mp4') };
  const expectedProxies = {
    'assets/': [sha(Buffer.alloc(0)), 0],
    'interviews/': [sha(Buffer.alloc(0)), 0],
    'b_roll/': [sha(Buffer.alloc(0)), 0],
    [`assets/${names.image}`]: [sha(footage.image), 0],
    [`interviews/${proxyNames.interview}`]: [await proxyOf(names.interview), 0],
    [`b_roll/${proxyNames.broll}`]: [await proxyOf(names.broll), 0],
  };
  await staff.reload();
  const [proxyZip] = await Promise.all([
    staff.waitForEvent('download', { timeout: 60_000 }),
    staff.getByRole('button', { name: 'Download proxy zip' }).click(),
  ]);
  expect(proxyZip.suggestedFilename()).toBe(`project-${projectId}_proxy_assets.zip`);
  const proxyFile = join(WORK, 'proxy.zip');
  await proxyZip.saveAs(proxyFile);
  await expect(staff.getByTestId('zip-download-message')).toContainText('3 files');
  expect(await zipEntries(proxyFile)).toEqual(expectedProxies);

  // The File System Access path: the save picker's file (here one in the origin's private
  // file system) is written by the worker directly.
  await staff.evaluate(() => {
    (window as unknown as { showSaveFilePicker: unknown }).showSaveFilePicker = async ({ suggestedName }: { suggestedName: string }) =>
      (await navigator.storage.getDirectory()).getFileHandle(suggestedName, { create: true });
  });
  await staff.getByRole('button', { name: 'Download proxy zip' }).click();
  const zipName = `project-${projectId}_proxy_assets.zip`;
  // The zip's file is created once the list of files is ready (the bar says "Preparing…" first),
  // and it is whole once the page says so.
  await expect(staff.getByTestId('zip-download-message')).toContainText(`${zipName}: 3 files`, { timeout: 60_000 });
  const saved = Buffer.from(
    await staff.evaluate(async (name) => {
      const bytes = new Uint8Array(await (await (await (await navigator.storage.getDirectory()).getFileHandle(name)).getFile()).arrayBuffer());
      let binary = '';
      for (const byte of bytes) binary += String.fromCharCode(byte);
      return btoa(binary);
    }, zipName),
    'base64',
  );
  const pickedFile = join(WORK, 'picked.zip');
  await writeFile(pickedFile, saved);
  expect(await zipEntries(pickedFile)).toEqual(expectedProxies);

  // The staff page plays the final video too.
  await expect(staff.getByTestId('video-player')).toBeVisible();
  await snap(staff, 'staff-project');

  // ——— Staff: the brief as brief.pdf. ———
  const [pdf] = await Promise.all([staff.waitForEvent('download'), staff.getByRole('button', { name: 'Download brief' }).click()]);
  expect(pdf.suggestedFilename()).toBe('brief.pdf');
  const pdfFile = join(WORK, 'brief.pdf');
  await pdf.saveAs(pdfFile);
  expect((await readFile(pdfFile)).subarray(0, 5).toString()).toBe('%PDF-');
  const { stdout: pdfText } = await exec('pdftotext', [pdfFile, '-']);
  expect(pdfText.replace(/\s+/g, ' ')).toContain(BRIEF_TEXT);
  expect(pdfText).toContain('Olivia Owner');
  // Issue 36: the goal's CJK, Korean, right-to-left and emoji come through (the worker fetched the CJK and emoji fonts for it).
  expect(missingScripts(pdfText)).toEqual([]);

  await staffContext.close();
  await customerContext.close();
});
