import { readFile, rm } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { PART_SIZE } from '../src/domain/uploads.ts';
import { login, unique } from './api-helpers.ts';
import { staffSignIn, storeSession } from './sign-in.ts';
import { makeClip } from './test-clips.ts';
import { corruptPartInFlight } from './upload-corruption.ts';

/**
 * Issue 35, "prove every byte arrived": a part corrupted on its way is refused by the store and
 * sent again, never kept; staff see the clip verified with its CRC-32, and the manifest beside
 * the raw zip lists it so.
 */
test('a part corrupted on its way to the store is refused and sent again; staff see the clip verified with its CRC-32, as the manifest lists it', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const path = `.tmp/e2e-media/checksummed-${unique()}.mp4`;
  try {
    // Two parts: the first of them is corrupted on the way.
    await makeClip(path, PART_SIZE + 54_321);
    const bytes = await readFile(path);
    const hex = crc32(bytes).toString(16).padStart(8, '0');
    const owner = await login(request, 'owner@demo.cutdesk.test');
    const created = await request.post(`/api/v1/organizations/${owner.organizationId}/projects`, {
      headers: { authorization: `Bearer ${owner.token}` },
      data: { name: `Checksums ${unique()}`, audience: 'Crew', goal: 'Every byte', finalVideoLength: '1-2 minutes', brief: 'Checksum end-to-end test.' },
    });
    const projectId = ((await created.json()) as { id: number }).id;

    const corruption = await corruptPartInFlight(page, 1);
    await storeSession(page, owner.token, owner.organizationId!);
    await page.goto(`/user/project/${projectId}`);
    const section = page.getByTestId('asset-section-INTERVIEW_CLIP');
    await page.getByTestId('upload-input-INTERVIEW_CLIP').setInputFiles(path);
    // Uploaded and registered: the pending tile became the asset's.
    await expect(section.getByTestId('asset-tile')).toHaveCount(1, { timeout: 60_000 });
    await expect(page.getByTestId('pending-tile')).toHaveCount(0);
    // The store refused the corrupted attempt (400 BadDigest) and took the next one.
    await expect.poll(() => corruption.answers(), { timeout: 60_000 }).toEqual([400, 200]);

    // Staff: the clip is verified once the store's copy is read back, with the CRC-32 of the file on disk.
    const staff = await browser.newPage();
    await staffSignIn(staff, 'admin@demo.cutdesk.test');
    await expect
      .poll(
        async () => {
          await staff.goto(`/project/${projectId}`);
          return staff.getByTestId('asset-checksum').first().textContent({ timeout: 15_000 });
        },
        { timeout: 60_000 },
      )
      .toBe(`Verified${hex}`);
    const [download] = await Promise.all([staff.waitForEvent('download'), staff.getByRole('button', { name: 'Download manifest (CSV)' }).click()]);
    expect(download.suggestedFilename()).toBe(`project-${projectId}_raw_assets_manifest.csv`);
    const manifest = await readFile(await download.path(), 'utf8');
    const name = path.split('/').pop()!;
    expect(manifest).toBe(`\uFEFFPath,Size,CRC-32,Status\r\n"interviews/${name}","${bytes.length}","${hex}","Verified"\r\n`);
    await staff.close();
  } finally {
    await rm(path, { force: true });
  }
});
