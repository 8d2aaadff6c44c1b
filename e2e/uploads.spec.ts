import { rm, writeFile } from 'node:fs/promises';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { formatFileSize } from '../src/domain/bytes.ts';
import { MESSAGES } from '../src/domain/messages.ts';
import { PART_SIZE } from '../src/domain/uploads.ts';
import { registerOwner } from './fresh-organization.ts';
import { makeClip, storedInterviewClip } from './test-clips.ts';
import { networkConditions, type WorkerResponseListener } from './upload-network.ts';

/** 200 MB by default; E2E_UPLOAD_BYTES=1073741824 runs the same journey with 1 GiB. */
const CLIP_BYTES = Number(process.env.E2E_UPLOAD_BYTES ?? 200 * 1000 * 1000);
const CLIP = `.tmp/e2e-media/interview-${CLIP_BYTES}.mp4`;
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function login(request: APIRequestContext, email: string, password = 'demo-password') {
  const response = await request.post('/api/v1/login', { data: { email, password } });
  expect(response.ok()).toBe(true);
  return (await response.json()) as { token: string; organizationId: number };
}

async function createProject(request: APIRequestContext, token: string, organizationId: number, name: string): Promise<number> {
  const response = await request.post(`/api/v1/organizations/${organizationId}/projects`, {
    headers: { authorization: `Bearer ${token}` },
    data: { name, audience: 'Investors', goal: 'Raise the round', finalVideoLength: '1-2 minutes', brief: 'Upload engine end-to-end test.' },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

/**
 * The page signed in with `token` (stored the way the app stores it), throttled to
 * `bytesPerSecond` upstream; answers a switch that cuts and restores the network.
 */
async function openProject(
  page: Page,
  token: string,
  organizationId: number,
  projectId: number,
  bytesPerSecond: number,
  onWorkerResponse?: WorkerResponseListener,
) {
  await page.addInitScript(
    ([t, o]) => {
      localStorage.setItem('cutdesk.token', JSON.stringify(t));
      localStorage.setItem('cutdesk.orgId', JSON.stringify(o));
    },
    [token, organizationId] as const,
  );
  // DevTools network emulation, for the page and for the upload worker (a target of its own).
  const conditions = await networkConditions(page, onWorkerResponse);
  const network = (offline: boolean) => conditions({ offline, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
  await network(false);
  await page.goto(`/user/project/${projectId}`);
  await expect(page.getByTestId('asset-section-INTERVIEW_CLIP')).toBeVisible();
  // The upload zones started the upload worker: the same conditions for it before any file.
  await conditions.uploadWorkerReady();
  return Object.assign(network, { uploadWorkerReady: conditions.uploadWorkerReady });
}

const percentShown = async (page: Page) => Number(((await page.getByTestId('pending-percent').first().textContent()) ?? '0').replace('%', '')) || 0;

test('a 200 MB clip uploads through the project page, survives a reload without starting over, and is stored byte for byte', async ({ page, request }) => {
  test.setTimeout(180_000 + (CLIP_BYTES / 1e6) * 200);
  const sourceSha = await makeClip(CLIP, CLIP_BYTES);
  const owner = await login(request, 'owner@demo.cutdesk.test');
  const projectId = await createProject(request, owner.token, owner.organizationId, `Uploads ${unique()}`);

  // Every part PUT the worker gets an answer for (DevTools reports the worker's requests).
  const stored = new Set<number>();
  const sentAfterReload: number[] = [];
  let reloaded = false;
  const onPartAnswer: WorkerResponseListener = ({ url, method, status }) => {
    const part = url.searchParams.get('partNumber');
    if (!url.pathname.startsWith('/s3/') || method !== 'PUT' || !part) return;
    if (reloaded) sentAfterReload.push(Number(part));
    else if (status === 200) stored.add(Number(part));
  };
  // A dedicated upload worker's requests reach Playwright's events; a shared one's only DevTools (openProject).
  page.context().on('response', (response) => onPartAnswer({ url: new URL(response.url()), method: response.request().method(), status: response.status() }));

  const network = await openProject(page, owner.token, owner.organizationId, projectId, 25_000_000, onPartAnswer);
  await page.getByTestId('upload-input-INTERVIEW_CLIP').setInputFiles(CLIP);
  const tile = page.getByTestId('pending-tile');
  await expect(tile).toHaveAttribute('data-upload-status', 'uploading');
  await expect(page.getByTestId('uploads-popup')).toContainText('Uploading 1 file');
  // One upload: its row carries the bytes, speed and time left; no overall line repeats them.
  await expect(page.getByTestId('upload-row')).toContainText(`of ${formatFileSize(CLIP_BYTES)} · `);
  await expect(page.getByTestId('uploads-overall')).toHaveCount(0);

  // A network cut pauses the upload; when the network is back it resumes without a click.
  await expect.poll(() => percentShown(page)).toBeGreaterThanOrEqual(10);
  await network(true);
  await expect(page.getByTestId('uploads-popup')).toContainText('You are offline');
  await expect(tile).toContainText('waiting for the connection');
  await network(false);
  await expect(page.getByTestId('uploads-popup')).not.toContainText('You are offline');
  await expect(tile).toHaveAttribute('data-upload-status', 'uploading');
  // Send to editing waits for the upload (C§8).
  await page.getByRole('button', { name: 'Send to editing' }).click();
  await expect(page.getByText(MESSAGES.waitForUploads)).toBeVisible();

  // Mid-way: some parts stored, the rest still to go.
  await expect.poll(() => stored.size, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  expect(await percentShown(page)).toBeLessThan(90);
  // Leaving with an upload running asks first.
  const prompted = new Promise<string>((resolve) => page.once('dialog', (dialog) => void dialog.accept().then(() => resolve(dialog.type()))));
  reloaded = true;
  const storedBeforeReload = new Set(stored);
  await page.reload();
  expect(await prompted).toBe('beforeunload');

  // Back after the reload: the upload is listed (id -1), incomplete, waiting for its file.
  await expect(page.getByTestId('asset-section-INTERVIEW_CLIP')).toBeVisible();
  await expect(tile).toHaveAttribute('data-upload-status', 'incomplete');
  await expect(tile).toHaveAttribute('data-asset-id', '-1');
  await expect(tile).toContainText('Select the file again to resume this upload.');
  // Picking the same file (name, size, date) resumes it from the parts already stored, in a
  // worker the conditions reached (the one before the reload, or one started since).
  await network.uploadWorkerReady();
  await page.getByTestId('upload-input-INTERVIEW_CLIP').setInputFiles(CLIP);
  await expect(tile).toHaveAttribute('data-upload-status', 'uploading');
  expect(await percentShown(page)).toBeGreaterThanOrEqual(Math.floor(((storedBeforeReload.size * PART_SIZE) / CLIP_BYTES) * 100));

  await expect(page.getByTestId('asset-tile')).toHaveCount(1, { timeout: 120_000 + (CLIP_BYTES / 1e6) * 100 });
  await expect(page.getByTestId('pending-tile')).toHaveCount(0);
  await expect(page.getByTestId('asset-section-INTERVIEW_CLIP')).toContainText(`interview-${CLIP_BYTES}.mp4`);
  // No part stored before the reload went again: at most the parts in flight at the reload are sent twice.
  expect(sentAfterReload.filter((part) => storedBeforeReload.has(part))).toEqual([]);
  expect(new Set(sentAfterReload).size).toBeLessThanOrEqual(Math.ceil(CLIP_BYTES / PART_SIZE) - storedBeforeReload.size);

  test.info().annotations.push({
    type: 'parts',
    description: `stored before the reload: ${[...storedBeforeReload].sort((a, b) => a - b).join(', ')}; sent after: ${sentAfterReload.sort((a, b) => a - b).join(', ')}`,
  });

  // The stored object is byte for byte the source.
  expect(await storedInterviewClip(request, projectId, owner.token)).toEqual({ clips: 1, size: CLIP_BYTES, status: 200, sha256: sourceSha });

  // Sending is no longer blocked by the upload.
  await page.getByRole('button', { name: 'Send to editing' }).click();
  await expect(page.getByRole('dialog', { name: 'Send to editing?' })).toBeVisible();
});

test('two uploads at once: the panel sums them on an overall line, each keeps its row', async ({ page, request }) => {
  const bytes = 25 * 1000 * 1000;
  const clips = [`.tmp/e2e-media/first-take-${bytes}.mp4`, `.tmp/e2e-media/second-take-${bytes}.mp4`];
  await Promise.all(clips.map((clip) => makeClip(clip, bytes)));
  const owner = await login(request, 'owner@demo.cutdesk.test');
  const projectId = await createProject(request, owner.token, owner.organizationId, `Two takes ${unique()}`);
  // Slow enough that both are still uploading while the panel is read.
  await openProject(page, owner.token, owner.organizationId, projectId, 200_000);
  await page.getByTestId('upload-input-INTERVIEW_CLIP').setInputFiles(clips);
  const popup = page.getByTestId('uploads-popup');
  await expect(popup).toContainText('Uploading 2 files');
  await expect(popup.getByTestId('upload-row')).toHaveCount(2);
  const overall = popup.getByTestId('uploads-overall');
  await expect(overall.getByRole('progressbar', { name: 'Overall upload progress' })).toBeVisible();
  await expect(overall).toContainText(` of ${formatFileSize(2 * bytes)}`);
});

test('the zone refuses files it does not take, and images show up with a preview', async ({ page, request }) => {
  const owner = await login(request, 'owner@demo.cutdesk.test');
  const projectId = await createProject(request, owner.token, owner.organizationId, `Images ${unique()}`);
  await openProject(page, owner.token, owner.organizationId, projectId, -1);
  await page.getByTestId('upload-input-ASSET').setInputFiles({ name: 'notes.mp4', mimeType: 'video/mp4', buffer: Buffer.from('not an image') });
  await expect(page.getByTestId('upload-zone-ASSET')).toContainText('Only image files can be uploaded here.');
  // A 1×1 PNG.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  await page.getByTestId('upload-input-ASSET').setInputFiles({ name: 'Our logo (final).png', mimeType: 'image/png', buffer: png });
  const section = page.getByTestId('asset-section-ASSET');
  await expect(section.getByTestId('asset-tile')).toHaveCount(1);
  await expect(section).toContainText('Our logo final.png');
  await expect(section.locator('img')).toHaveJSProperty('naturalWidth', 1);
  await section.getByRole('button', { name: 'Delete Our logo final.png' }).click();
  await page.getByRole('dialog', { name: 'Delete this file?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(section.getByTestId('asset-tile')).toHaveCount(0);
});

test("a second organization's credentials are refused for this project's prefix", async ({ request, baseURL }) => {
  const owner = await login(request, 'owner@demo.cutdesk.test');
  const projectId = await createProject(request, owner.token, owner.organizationId, `Guarded ${unique()}`);

  const email = `rival-${unique()}@example.com`;
  const { token: rival, organizationId: rivalOrganizationId } = await registerOwner(request, {
    email,
    password: 'rival-pass-1',
    firstName: 'Riva',
    lastName: 'Rival',
    phone: '5550111',
    organizationName: `Rival Films ${unique()}`,
  });
  const rivalProject = await createProject(request, rival, rivalOrganizationId, 'Rival project');

  // Our project does not exist for them.
  expect((await request.post('/api/v1/uploads/credentials', { headers: { authorization: `Bearer ${rival}` }, data: { projectId } })).status()).toBe(404);
  // Their own credentials do not open our prefix at the store.
  const creds = (await (
    await request.post('/api/v1/uploads/credentials', { headers: { authorization: `Bearer ${rival}` }, data: { projectId: rivalProject } })
  ).json()) as {
    accessKeyId: string;
    secretAccessKey: string;
    sessionToken: string;
    endpoint: string;
    bucket: string;
    region: string;
    prefix: string;
  };
  expect(creds.endpoint).toBe(`${baseURL}/s3`);
  const s3 = new S3Client({
    endpoint: creds.endpoint,
    region: creds.region,
    forcePathStyle: true,
    credentials: { accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey, sessionToken: creds.sessionToken },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 1,
  });
  try {
    await expect(
      s3.send(new PutObjectCommand({ Bucket: creds.bucket, Key: `projects/${projectId}/raw/interviews/intruder.mp4`, Body: 'nope' })),
    ).rejects.toMatchObject({ name: 'AccessDenied', $metadata: { httpStatusCode: 403 } });
    await s3.send(new PutObjectCommand({ Bucket: creds.bucket, Key: `${creds.prefix}interviews/own.mp4`, Body: 'fine' }));
  } finally {
    s3.destroy();
  }
});

test('a camera card picked as a folder: every clip at any depth is queued with its folder, the camera files are skipped in one line (issue 35)', async ({
  page,
  request,
}) => {
  const card = `card-${unique()}`;
  const root = `.tmp/e2e-media/${card}`;
  try {
    await makeClip(`${root}/DCIM/100MSDCF/C0001.MP4`, 300_000);
    await makeClip(`${root}/PRIVATE/M4ROOT/CLIP/C0002.MP4`, 300_000);
    // What a Sony card holds beside its clips, what macOS leaves, and a file that is no clip.
    await writeFile(`${root}/PRIVATE/M4ROOT/CLIP/C0002M01.XML`, '<NonRealTimeMeta/>');
    await writeFile(`${root}/DCIM/100MSDCF/C0001.THM`, Buffer.alloc(64));
    await writeFile(`${root}/.DS_Store`, Buffer.alloc(32));
    // A clip deleted on a Mac stays on the card in its bin: never sent.
    await makeClip(`${root}/.Trashes/501/C0009.MP4`, 300_000);
    await writeFile(`${root}/shot-list.pdf`, '%PDF-1.4');
    const owner = await login(request, 'owner@demo.cutdesk.test');
    const projectId = await createProject(request, owner.token, owner.organizationId, `Card ${unique()}`);
    await openProject(page, owner.token, owner.organizationId, projectId, -1);

    await page.getByTestId('folder-input-INTERVIEW_CLIP').setInputFiles(root);
    await expect(page.getByTestId('folder-summary-INTERVIEW_CLIP')).toHaveText('2 clips queued, 4 camera files skipped, 1 other file skipped');
    const section = page.getByTestId('asset-section-INTERVIEW_CLIP');
    await expect(section.getByTestId('asset-tile')).toHaveCount(2);
    await expect(section).toContainText(`${card}/DCIM/100MSDCF/`);
    await expect(section).toContainText(`${card}/PRIVATE/M4ROOT/CLIP/`);

    // Kept by the server: after a reload, and in the project's asset list.
    await page.reload();
    await expect(section.getByTestId('asset-tile')).toHaveCount(2);
    await expect(section).toContainText(`${card}/DCIM/100MSDCF/`);
    const listed = await request.get(`/api/v1/projects/${projectId}/assets?type=InterviewClip`, { headers: { authorization: `Bearer ${owner.token}` } });
    const assets = (await listed.json()) as { name: string; folder: string | null }[];
    expect(assets.map(({ name, folder }) => `${folder}/${name}`).sort()).toEqual([`${card}/DCIM/100MSDCF/C0001.MP4`, `${card}/PRIVATE/M4ROOT/CLIP/C0002.MP4`]);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
