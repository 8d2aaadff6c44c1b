import { rm } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { login, unique } from './api-helpers.ts';
import { storeSession } from './sign-in.ts';
import { makeClip } from './test-clips.ts';

/** Issue 35: a card of 300 clips in the uploads panel: only the rows in view are in the page, and the whole drop pauses and resumes as one. */
test('300 clips queued at once: the panel keeps only the rows in view, scrolls to the last, and pauses and resumes them all', async ({ page, request }) => {
  test.setTimeout(180_000);
  const root = `.tmp/e2e-media/many-${unique()}`;
  try {
    const names = Array.from({ length: 300 }, (_, i) => `C${String(i + 1).padStart(4, '0')}.MP4`);
    for (const name of names) await makeClip(`${root}/${name}`, 4_000);
    const owner = await login(request, 'owner@demo.cutdesk.test');
    const created = await request.post(`/api/v1/organizations/${owner.organizationId}/projects`, {
      headers: { authorization: `Bearer ${owner.token}` },
      data: { name: `Many ${unique()}`, audience: 'Crew', goal: 'A full card', finalVideoLength: '1-2 minutes', brief: 'Many files end-to-end test.' },
    });
    const projectId = ((await created.json()) as { id: number }).id;
    await storeSession(page, owner.token, owner.organizationId!);
    await page.goto(`/user/project/${projectId}`);
    await page.getByTestId('upload-input-INTERVIEW_CLIP').setInputFiles(names.map((name) => `${root}/${name}`));
    const popup = page.getByTestId('uploads-popup');
    await popup.getByRole('button', { name: 'Pause all' }).click();
    await expect(popup).toContainText('Uploads paused');
    await expect(popup.getByText(/^Paused at \d+%$/).first()).toBeVisible();

    // The zone shows a few as tiles and counts the others.
    await expect(page.getByTestId('pending-tile')).toHaveCount(12);
    await expect(page.getByTestId('pending-more')).toContainText(/^\d+ more uploads/);
    // Hundreds of rows stand in the list's scroll height; a few are in the page.
    const rows = popup.getByTestId('upload-row');
    await expect(rows.first()).toHaveAttribute('aria-setsize', '300');
    expect(await rows.count()).toBeLessThanOrEqual(30);
    await popup.getByRole('list', { name: 'Uploads' }).evaluate((list) => list.scrollTo({ top: list.scrollHeight }));
    await expect(rows.filter({ hasText: 'C0300.MP4' })).toBeVisible();
    expect(await rows.count()).toBeLessThanOrEqual(30);

    // Nothing more is stored while paused.
    const stored = async () =>
      (
        (await (
          await request.get(`/api/v1/projects/${projectId}/assets?type=InterviewClip`, { headers: { authorization: `Bearer ${owner.token}` } })
        ).json()) as unknown[]
      ).length;
    const whenPaused = await stored();
    await page.waitForTimeout(1_000);
    expect(await stored()).toBe(whenPaused);
    // Resumed, they go on (that every one then finishes is the engine's test: tests/workers/upload-engine.test.ts).
    await popup.getByRole('button', { name: 'Resume all' }).click();
    await expect(popup).toContainText(/Uploading \d+ files/);
    await expect.poll(stored, { timeout: 30_000 }).toBeGreaterThan(whenPaused + 10);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
