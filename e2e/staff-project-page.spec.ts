import { expect, test } from '@playwright/test';
import { staffSignIn } from './sign-in.ts';
import { projectInProgress, unique } from './api-helpers.ts';

/** The staff project page (/project/:id): the player's size, the link boxes and their limits, a zip download the browser cannot stream. */

test('the project page shows the player at 884×494 and link boxes wide enough, and names a link limit', async ({ page, request }) => {
  const stamp = unique();
  const { id } = await projectInProgress(request, `Links ${stamp}`);
  await staffSignIn(page, 'admin@demo.cutdesk.test');
  await page.goto(`/project/${id}`);
  const player = page.getByTestId('no-video');
  await expect(player).toBeVisible();
  const box = (await player.boundingBox())!;
  expect(Math.round(box.width)).toBe(884);
  expect(Math.round(box.height)).toBe(494);
  const feedback = page.getByLabel('Feedback', { exact: true });
  expect((await feedback.boundingBox())!.width).toBeGreaterThan(380);

  await feedback.fill(`https://example.com/${'x'.repeat(181)}`);
  await feedback.press('Enter');
  await expect(page.getByText('The feedback link must be at most 200 characters.')).toBeVisible();
  await feedback.press('Escape');
  const assets = page.getByLabel('Organization assets', { exact: true });
  await assets.fill(`https://example.com/${'x'.repeat(236)}`);
  await assets.press('Enter');
  await expect(page.getByText('An asset link must be at most 255 characters.')).toBeVisible();
  await expect(page.getByText('Not a valid URL')).toHaveCount(0);
});

test('a zip made on the device says at once why this browser cannot stream it; the raw zip, streamed by the server, still downloads', async ({
  page,
  request,
}) => {
  const stamp = unique();
  const { id } = await projectInProgress(request, `Zip ${stamp}`);
  await page.addInitScript(() => {
    delete (window as unknown as { showSaveFilePicker?: unknown }).showSaveFilePicker;
    // A browser that cannot hand a stream to the download service (no transferable streams).
    window.structuredClone = () => {
      throw new DOMException('ReadableStream could not be cloned.', 'DataCloneError');
    };
  });
  await staffSignIn(page, 'admin@demo.cutdesk.test');
  // The page reads its asset list, opens its live stream, and reads what it shows once more when
  // the stream opens (a change between the two would be missed): that read is the page's, not
  // the zip's, so it is waited for (it came after the button was ready in 1 run of 8).
  const assetsPath = `/api/v1/projects/${id}/assets`;
  const pageReads: string[] = [];
  page.on('request', (r) => new URL(r.url()).pathname === assetsPath && pageReads.push('assets'));
  page.on('response', (r) => new URL(r.url()).pathname === `/api/v1/projects/${id}/events` && pageReads.push('stream open'));
  await page.goto(`/project/${id}`);
  await expect(page.getByRole('button', { name: 'Download proxy zip' })).toBeEnabled();
  await expect.poll(() => pageReads.slice(pageReads.indexOf('stream open') + 1).includes('assets') && pageReads.includes('stream open')).toBe(true);
  // "At once" means before any work: no asset list read for the zip, no download service
  // registered, no timer waited out (a wall-clock bound would only measure the machine's load).
  const work: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path === assetsPath || path.startsWith('/zip-download/')) work.push(path);
  });
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1_000);
  await page.getByRole('button', { name: 'Download proxy zip' }).click();
  await expect(page.getByTestId('zip-download-message')).toContainText('This browser cannot save large downloads');
  expect(work).toEqual([]);
  await page.clock.resume();
  // The raw zip needs nothing of the browser but a download (issue 34).
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download raw zip' }).click()]);
  expect(download.suggestedFilename()).toBe(`project-${id}_raw_assets.zip`);
  await expect(page.getByTestId('zip-download-message')).toContainText(`project-${id}_raw_assets.zip (0 files,`);
});
