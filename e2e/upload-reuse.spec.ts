import { rm, writeFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { login, unique } from './api-helpers.ts';
import { storeSession } from './sign-in.ts';
import { makeClip } from './test-clips.ts';
import { networkConditions } from './upload-network.ts';

/** Issue 35, "never send the same bytes twice": a card dropped again, into another project, sends nothing. */

async function newProject(request: APIRequestContext, token: string, organizationId: number, name: string): Promise<number> {
  const response = await request.post(`/api/v1/organizations/${organizationId}/projects`, {
    headers: { authorization: `Bearer ${token}` },
    data: { name, audience: 'Crew', goal: 'The same card twice', finalVideoLength: '1-2 minutes', brief: 'Stored copies end-to-end test.' },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

test('a camera card dropped again into another project is done without a byte sent: each clip is made from the stored copy, in its folder', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const card = `card-${unique()}`;
  const root = `.tmp/e2e-media/${card}`;
  try {
    await makeClip(`${root}/DCIM/100MSDCF/C0001.MP4`, 6_000_000);
    await makeClip(`${root}/PRIVATE/M4ROOT/CLIP/C0002.MP4`, 25_000_000);
    await writeFile(`${root}/DCIM/100MSDCF/C0001.THM`, Buffer.alloc(64));
    const owner = await login(request, 'owner@demo.cutdesk.test');
    const headers = { authorization: `Bearer ${owner.token}` };
    const first = await newProject(request, owner.token, owner.organizationId!, `Card ${unique()}`);
    const second = await newProject(request, owner.token, owner.organizationId!, `Card again ${unique()}`);
    const listed = async (projectId: number) =>
      (await (await request.get(`/api/v1/projects/${projectId}/assets`, { headers })).json()) as {
        name: string;
        folder: string | null;
        path: string;
        crc32: number | null;
      }[];

    // Every request the upload worker sends to the store, by method.
    const storeRequests: string[] = [];
    await storeSession(page, owner.token, owner.organizationId!);
    const conditions = await networkConditions(page, ({ url, method }) => url.pathname.startsWith('/s3/') && storeRequests.push(method));
    await conditions({ offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.goto(`/user/project/${first}`);
    await conditions.uploadWorkerReady();
    await page.getByTestId('folder-input-INTERVIEW_CLIP').setInputFiles(root);
    const section = page.getByTestId('asset-section-INTERVIEW_CLIP');
    await expect(section.getByTestId('asset-tile')).toHaveCount(2, { timeout: 60_000 });
    expect(storeRequests.filter((method) => method === 'PUT').length).toBeGreaterThanOrEqual(3);
    // The media worker reads what was stored (its CRC-32 and fingerprint) before it can be matched.
    await expect.poll(async () => (await listed(first)).every((asset) => asset.crc32 !== null), { timeout: 60_000 }).toBe(true);

    storeRequests.length = 0;
    await page.goto(`/user/project/${second}`);
    await conditions.uploadWorkerReady();
    await page.getByTestId('folder-input-INTERVIEW_CLIP').setInputFiles(root);
    await expect(page.getByTestId('folder-summary-INTERVIEW_CLIP')).toHaveText('2 clips queued, 1 camera file skipped');
    await expect(section.getByTestId('asset-tile')).toHaveCount(2, { timeout: 30_000 });
    await expect(page.getByTestId('upload-row').first()).toContainText('Already stored: nothing sent');
    expect(storeRequests).toEqual([]);
    const again = await listed(second);
    const before = await listed(first);
    expect(again.map(({ folder, name, path }) => ({ folder, name, path })).sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      before.map(({ folder, name, path }) => ({ folder, name, path })).sort((a, b) => a.name.localeCompare(b.name)),
    );
    expect(again.map((asset) => asset.folder).sort()).toEqual([`${card}/DCIM/100MSDCF`, `${card}/PRIVATE/M4ROOT/CLIP`]);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
