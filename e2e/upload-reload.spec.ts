import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { PART_SIZE } from '../src/domain/uploads.ts';
import { startCountingProxy } from '../bench/upload-engine/counting-proxy.ts';
import { makeClip, storedInterviewClip } from './test-clips.ts';

/**
 * Issue 14, "Less sent twice after a reload": a page reload in the middle of an upload. The
 * upload worker is a SharedWorker that outlives the page (Chromium's `extendedLifetime`): the
 * parts in flight at the reload finish there, and the next page's engine waits for them instead
 * of sending them again. The bytes are counted where the store receives them (a pass-through
 * proxy in front of the real server, bench/upload-engine/counting-proxy.ts), cut requests
 * included; the stored object's SHA-256 must be the source's.
 */

const PARTS = 10;
const CLIP_BYTES = PARTS * PART_SIZE + 12_345;
const CLIP = `.tmp/e2e-media/reload-${CLIP_BYTES}.mp4`;
// Beside the server (its store may listen on E2E_PORT + 1).
const PROXY_PORT = Number(process.env.E2E_PORT ?? 8181) + 7;

/** A new project of the demo owner, and the page signed in as them (the token in storage). */
async function newProjectSignedIn(page: Page, request: APIRequestContext, name: string, brief: string) {
  const login = await request.post('/api/v1/login', { data: { email: 'owner@demo.cutdesk.test', password: 'demo-password' } });
  const owner = (await login.json()) as { token: string; organizationId: number };
  const created = await request.post(`/api/v1/organizations/${owner.organizationId}/projects`, {
    headers: { authorization: `Bearer ${owner.token}` },
    data: { name: `${name} ${Date.now().toString(36)}`, audience: 'Investors', goal: 'Raise the round', finalVideoLength: '1-2 minutes', brief },
  });
  const projectId = ((await created.json()) as { id: number }).id;
  await page.addInitScript(
    ([t, o]) => {
      localStorage.setItem('cutdesk.token', JSON.stringify(t));
      localStorage.setItem('cutdesk.orgId', JSON.stringify(o));
    },
    [owner.token, owner.organizationId] as const,
  );
  return { owner, projectId };
}

test('a reload at half way sends at most one part twice: the parts in flight finish in the upload worker, which outlives the page', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(300_000);
  const sourceSha = await makeClip(CLIP, CLIP_BYTES);
  // 6 MB/s per part request: a 20 MiB part takes a few seconds, so the reload always cuts into parts in flight.
  const proxy = await startCountingProxy({ target: baseURL!, port: PROXY_PORT, bytesPerSecond: 6_000_000 });
  try {
    const { owner, projectId } = await newProjectSignedIn(page, request, 'Reload', 'Reload during an upload.');

    await page.goto(`${proxy.origin}/user/project/${projectId}`);
    await expect(page.getByTestId('asset-section-INTERVIEW_CLIP')).toBeVisible();
    await page.getByTestId('upload-input-INTERVIEW_CLIP').setInputFiles(CLIP);
    const tile = page.getByTestId('pending-tile');
    await expect(tile).toHaveAttribute('data-upload-status', 'uploading');

    // Half way: half the parts stored, the others in flight or still to go.
    const stored = () => proxy.parts.filter((part) => part.status === 200).length;
    await expect.poll(stored, { timeout: 120_000 }).toBeGreaterThanOrEqual(PARTS / 2);
    const inFlight = proxy.inFlight().map((part) => ({ partNumber: part.partNumber, received: part.received }));
    page.once('dialog', (dialog) => void dialog.accept());
    await page.reload();
    // The reload really cut into parts on their way (otherwise this test would prove nothing).
    expect(inFlight.length).toBeGreaterThan(0);

    // Back after the reload: the file from an <input> must be picked again (as before); the upload resumes.
    await expect(page.getByTestId('asset-section-INTERVIEW_CLIP')).toBeVisible();
    await expect(tile).toHaveAttribute('data-upload-status', 'incomplete');
    await page.getByTestId('upload-input-INTERVIEW_CLIP').setInputFiles(CLIP);
    await expect(page.getByTestId('asset-tile')).toHaveCount(1, { timeout: 180_000 });
    await expect(page.getByTestId('pending-tile')).toHaveCount(0);

    // The parts in flight at the reload were received whole, once, and none was cut.
    for (const { partNumber } of inFlight) {
      const requests = proxy.parts.filter((part) => part.partNumber === partNumber);
      expect(
        requests.filter((part) => part.status === 200 && part.received === part.length),
        `part ${partNumber}`,
      ).toHaveLength(1);
    }
    const sentTwice = proxy.partBytes() - CLIP_BYTES;
    test.info().annotations.push({
      type: 're-sent',
      description: `${(sentTwice / 2 ** 20).toFixed(1)} MiB re-sent; in flight at the reload: ${inFlight.map((part) => `${part.partNumber} (${(part.received / 2 ** 20).toFixed(1)} MiB)`).join(', ')}`,
    });
    expect(sentTwice).toBeLessThanOrEqual(PART_SIZE);
    expect(proxy.parts.filter((part) => part.cut)).toEqual([]);

    // The stored object is byte for byte the source.
    expect(await storedInterviewClip(request, projectId, owner.token)).toEqual({ clips: 1, size: CLIP_BYTES, status: 200, sha256: sourceSha });
  } finally {
    await proxy.close();
  }
});

test('a sign-out right after a reload stops the parts the page before it left in flight, and the queue stays empty', async ({ page, request, baseURL }) => {
  test.setTimeout(120_000);
  const bytes = 3 * PART_SIZE + 4_321;
  const clip = `.tmp/e2e-media/reload-sign-out-${bytes}.mp4`;
  await makeClip(clip, bytes);
  // 1 MB/s per part request: a part takes about 20 s, far longer than the reload and the sign-out.
  const proxy = await startCountingProxy({ target: baseURL!, port: PROXY_PORT + 1, bytesPerSecond: 1_000_000 });
  try {
    const { projectId } = await newProjectSignedIn(page, request, 'Sign-out', 'Sign out during an upload.');
    await page.goto(`${proxy.origin}/user/project/${projectId}`);
    await page.getByTestId('upload-input-INTERVIEW_CLIP').setInputFiles(clip);
    await expect.poll(() => proxy.inFlight().filter((part) => part.received > 0).length).toBeGreaterThan(0);
    const userId = await page.evaluate(() => (JSON.parse(localStorage.getItem('cutdesk.me')!) as { id: number }).id);
    const stored = () =>
      page.evaluate(
        (owner) =>
          new Promise<number>((resolve, reject) => {
            const open = indexedDB.open('cutdesk-uploads');
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const db = open.result;
              const count = db.transaction('uploads', 'readonly').objectStore('uploads').index('byUser').count(owner);
              count.onsuccess = () => {
                db.close();
                resolve(count.result);
              };
            };
          }),
        userId,
      );

    page.once('dialog', (dialog) => void dialog.accept());
    await page.reload();
    // The new page lists the upload; the parts of the page before are still on their way in the worker.
    await expect(page.getByTestId('pending-tile')).toHaveAttribute('data-upload-status', 'incomplete');
    const leftInFlight = proxy.inFlight().map((part) => part.partNumber);
    expect(leftInFlight.length).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login\/user$/);
    // Those parts are cut at once rather than finished, and nothing they would have recorded brings the upload back.
    await expect.poll(() => proxy.inFlight().length).toBe(0);
    expect(proxy.parts.filter((part) => leftInFlight.includes(part.partNumber) && part.status === 200)).toEqual([]);
    await expect.poll(stored).toBe(0);
    expect(proxy.parts.filter((part) => part.status === null && !part.cut)).toEqual([]);
  } finally {
    await proxy.close();
  }
});
