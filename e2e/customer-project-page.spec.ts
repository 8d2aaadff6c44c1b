import { mkdir, open, rm } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { customerSignIn as signInAs } from './sign-in.ts';
import { CREDIT_MESSAGES } from '../src/domain/messages.ts';
import { FIELD_MESSAGES } from '../src/domain/validation.ts';
import { UPLOAD_MESSAGES } from '../src/domain/uploads.ts';
import { mp4Bytes } from '../tests/support/file-fixtures.ts';
import { newProject, unique } from './api-helpers.ts';
import { registerOwner } from './fresh-organization.ts';
import { networkConditions } from './upload-network.ts';

/**
 * The customer's project page (/user/project/:id): Send to editing and what stops it (an invalid
 * brief, incomplete clips, no credits), the top bar's title, the downloads of a finished project,
 * a timer frozen over the weekend and the upload zones. Written for the issue 12 walkthrough.
 */

test('Send to editing stops on an invalid brief field, and saves brief edits before it asks', async ({ page, request }) => {
  const project = await newProject(request, 'owner@demo.cutdesk.test');
  await signInAs(page, 'owner@demo.cutdesk.test');
  await page.goto(`/user/project/${project.id}`);

  // An invalid field: no confirmation, the field says why.
  await page.getByLabel('Goal').fill('');
  await page.getByRole('button', { name: 'Send to editing' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText(CREDIT_MESSAGES.briefIncomplete)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Brief' }).getByText(FIELD_MESSAGES.required)).toBeVisible();

  // A valid edit not saved yet: saved first, then the confirmation.
  await page.getByLabel('Goal').fill('Raise the seed round');
  await page.getByRole('button', { name: 'Send to editing' }).click();
  await expect(page.getByRole('dialog', { name: 'Send to editing?' })).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await page.reload();
  await expect(page.getByLabel('Goal')).toHaveValue('Raise the seed round');
});

test('the top bar keeps one line with a long project title, also while it is edited, with the title on the menu line', async ({ page, request }) => {
  const project = await newProject(request, 'owner@demo.cutdesk.test', `W${'W'.repeat(30)} ${unique()}`.slice(0, 43));
  await signInAs(page, 'owner@demo.cutdesk.test');
  await page.goto(`/user/project/${project.id}`);
  const topbar = page.locator('.topbar');
  const title = topbar.getByRole('button', { name: project.name });
  await expect(title).toBeVisible();

  const oneLine = async () => {
    expect((await topbar.boundingBox())!.height).toBeLessThanOrEqual(68);
    for (const name of ['Projects', 'Content Library', 'Help', 'Admin Settings']) {
      expect((await topbar.getByRole('link', { name, exact: true }).boundingBox())!.height, name).toBeLessThan(40);
    }
    const who = (await topbar.locator('.who-name').boundingBox())!;
    expect(who.height).toBeLessThan(24);
  };
  await oneLine();
  // Cut with an ellipsis, not clipped.
  expect(await title.evaluate((el) => el.scrollWidth > el.clientWidth && getComputedStyle(el).textOverflow === 'ellipsis')).toBe(true);
  // On the menu's line: the same vertical centre (±2 px).
  const centre = (box: { y: number; height: number } | null) => box!.y + box!.height / 2;
  expect(
    Math.abs(centre(await title.boundingBox()) - centre(await topbar.getByRole('link', { name: 'Projects', exact: true }).boundingBox())),
  ).toBeLessThanOrEqual(2);

  await title.click();
  await expect(page.getByLabel('Project title')).toBeVisible();
  await oneLine();
  const input = (await page.getByLabel('Project title').boundingBox())!;
  const meters = (await topbar.locator('.meters').boundingBox())!;
  expect(input.x + input.width).toBeLessThan(meters.x);
});

test('incomplete clips are reported on the interview zone, not in the side card', async ({ page, request }) => {
  test.setTimeout(120_000);
  const project = await newProject(request, 'owner@demo.cutdesk.test');
  await mkdir('.tmp/e2e-media', { recursive: true });
  const clip = `.tmp/e2e-media/project-page-clip.mp4`;
  const handle = await open(clip, 'w');
  await handle.write(mp4Bytes(3_000_000));
  await handle.close();

  await signInAs(page, 'owner@demo.cutdesk.test');
  // The page and its upload worker (a target of its own) at 40 kB/s.
  const network = await networkConditions(page);
  const slow = { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 40_000 };
  await network(slow);
  await page.goto(`/user/project/${project.id}`);
  // The zone started the upload worker: slow before it sees the file.
  await network.uploadWorkerReady();
  await page.getByTestId('upload-input-INTERVIEW_CLIP').setInputFiles(clip);
  await expect(page.getByTestId('pending-tile')).toHaveAttribute('data-upload-status', 'uploading');
  // Reloading mid-upload leaves an incomplete clip (its file must be picked again).
  page.once('dialog', (dialog) => void dialog.accept());
  await page.reload();
  await expect(page.getByTestId('pending-tile')).toHaveAttribute('data-upload-status', 'incomplete');

  await page.getByRole('button', { name: 'Send to editing' }).click();
  await expect(page.getByTestId('incomplete-clips-INTERVIEW_CLIP')).toHaveText(CREDIT_MESSAGES.incompleteClips);
  await expect(page.locator('.send-box')).not.toContainText(CREDIT_MESSAGES.incompleteClips);
  await expect(page.getByTestId('incomplete-clips-BROLL_CLIP')).toHaveCount(0);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await network({ offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
});

test('an organization without credits is told before the confirmation', async ({ page, request }) => {
  // A new organization of its own: the demo's trial organization may have bought a plan in
  // another spec (e2e/checkout.spec.ts).
  const email = `no-credits-${unique()}@example.com`;
  await registerOwner(request, { email, password: 'demo-password', firstName: 'Nora', lastName: 'Credits', organizationName: `No Credits ${unique()}` });
  const project = await newProject(request, email);
  await signInAs(page, email);
  await page.goto(`/user/project/${project.id}`);
  await expect(page.getByTestId('no-credit-note')).toBeVisible();
  await page.getByRole('button', { name: 'Send to editing' }).click();
  await expect(page.getByRole('dialog', { name: 'You have no credits left' })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Send to editing?' })).toHaveCount(0);
});

test('a finished project offers its downloads and says why one is not available', async ({ page }) => {
  await signInAs(page, 'owner@demo.cutdesk.test');
  await page.getByRole('link', { name: 'Content Library' }).click();
  await page.getByRole('button', { name: 'Actions for Conference recap' }).click();
  await expect(page.getByRole('menuitem', { name: /Download HD/ })).toBeDisabled();
  await expect(page.getByRole('menuitem', { name: /Download HD/ })).toContainText('No final video has been delivered');
  await page.keyboard.press('Escape');

  await page.getByRole('link', { name: 'Conference recap' }).click();
  const downloads = page.getByRole('region', { name: 'Download the final video' });
  await expect(downloads.getByRole('button', { name: 'Download HD' })).toBeVisible();
  await expect(downloads.getByTestId('download-reasons')).toContainText('No final video has been delivered');
  // Seeded projects do not contradict themselves: an approved project is not "with the editors".
  await expect(page.getByTestId('video-placeholder')).not.toContainText('editors are on it');
});

test('a timer frozen over the weekend says it is paused', async ({ page }) => {
  // The last Saturday, 12:00 in New York.
  const saturday = new Date();
  saturday.setUTCDate(saturday.getUTCDate() - ((saturday.getUTCDay() + 1) % 7) - 7);
  saturday.setUTCHours(17, 0, 0, 0);
  await page.clock.install({ time: saturday });
  await signInAs(page, 'owner@demo.cutdesk.test');
  const editing = page.getByRole('region', { name: 'Editing' });
  await expect(editing.getByRole('link', { name: 'Product walkthrough' }).getByTestId('sla-paused')).toHaveText(/Paused for the weekend/);
  await editing.getByRole('link', { name: 'Product walkthrough' }).click();
  await expect(page.getByTestId('status-banner').getByTestId('sla-paused')).toHaveText(/Paused for the weekend/);
});

test('upload zones: a locked project does not promise uploads, and a refusal does not cover the zone text', async ({ page, request }) => {
  await signInAs(page, 'owner@demo.cutdesk.test');
  await page.getByRole('link', { name: 'Product walkthrough' }).click();
  await expect(page.getByRole('region', { name: 'Footage and images' })).not.toContainText('straight to secure storage');
  // With the brief collapsed, the side column still holds the project at a glance.
  await expect(page.getByRole('region', { name: 'About this project' })).toBeVisible();

  // A file larger than the organization's storage (sparse: nothing is written) is refused on the zone.
  const project = await newProject(request, 'owner@demo.cutdesk.test');
  await mkdir('.tmp/e2e-media', { recursive: true });
  const huge = '.tmp/e2e-media/project-page-3tb.mp4';
  const handle = await open(huge, 'w');
  await handle.write(mp4Bytes(64));
  await handle.truncate(3 * 1024 ** 4);
  await handle.close();
  await page.goto(`/user/project/${project.id}`);
  await expect(page.getByRole('region', { name: 'Footage and images' })).toContainText('straight to secure storage');
  const zone = page.getByTestId('upload-zone-INTERVIEW_CLIP');
  const notice = zone.getByRole('alert');
  try {
    await page.getByTestId('upload-input-INTERVIEW_CLIP').setInputFiles(huge);
    // Kept until the page has read it: Chromium takes a picked file's size when the page first
    // asks, and a file already deleted reads as 0 bytes, which fits (a CI run saw it queued).
    await expect(notice).toHaveText(UPLOAD_MESSAGES.noMoreMemory);
  } finally {
    await rm(huge, { force: true });
  }
  const text = (await zone.locator('.upload-zone-text').boundingBox())!;
  const box = (await notice.boundingBox())!;
  expect(box.x >= text.x + text.width || box.y >= text.y + text.height).toBe(true);
});
