import { mkdir, writeFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { FILE_MESSAGES } from '../src/domain/file-signature.ts';
import { CREDIT_MESSAGES } from '../src/domain/messages.ts';
import { UPLOAD_MESSAGES } from '../src/domain/uploads.ts';
import { registerOwner } from './fresh-organization.ts';
import { customerSignIn } from './sign-in.ts';

/**
 * Issue 12: a file the server refuses (here a `.mp4` that is plain text) shows as refused with
 * the server's reason, never as a finished 100 %, keeps that after a reload, is removed with
 * one click, and never holds up Send to editing. The uploads popup leaves the brief's Save
 * button reachable.
 */

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The element the user would hit at the centre of `selector`'s box: true when it is that element (nothing covers it). */
async function uncovered(page: Page, name: string): Promise<boolean> {
  return page.getByRole('button', { name }).evaluate((button) => {
    const box = button.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit !== null && button.contains(hit);
  });
}

test('a refused upload says why, is never shown finished, survives a reload, and is removed without blocking Send to editing', async ({ page, request }) => {
  test.setTimeout(120_000);
  const email = `refused-${unique()}@example.com`;
  const { headers, organizationId } = await registerOwner(request, {
    email,
    password: 'demo-password',
    firstName: 'Rhea',
    lastName: 'Refused',
    organizationName: `Refused Uploads ${unique()}`,
  });
  const created = await request.post(`/api/v1/organizations/${organizationId}/projects`, {
    headers,
    data: { name: `Refusal ${unique()}`, audience: 'Investors', goal: 'Raise the round', finalVideoLength: '1-2 minutes', brief: 'A refused upload.' },
  });
  expect(created.status()).toBe(201);
  const projectId = ((await created.json()) as { id: number }).id;

  // Text bytes under a video name: the browser accepts it by its extension, the server by its bytes does not.
  await mkdir('.tmp/e2e-media', { recursive: true });
  const fake = `.tmp/e2e-media/not-a-video-${unique()}.mp4`;
  await writeFile(fake, 'This is a plain text file, not a video.\n'.repeat(2_000));

  await customerSignIn(page, email);
  await page.goto(`/user/project/${projectId}`);
  await page.getByTestId('upload-input-INTERVIEW_CLIP').setInputFiles(fake);

  const tile = page.getByTestId('pending-tile');
  const popup = page.getByTestId('uploads-popup');
  const row = popup.getByTestId('upload-row');
  const refusedAsItShould = async () => {
    await expect(tile).toHaveAttribute('data-refused', 'true');
    await expect(tile).toContainText(FILE_MESSAGES.notVideo);
    await expect(tile).toContainText('Refused');
    await expect(tile).not.toContainText('100%');
    await expect(tile).not.toContainText(UPLOAD_MESSAGES.needsFile);
    await expect(tile.getByTestId('resume-upload')).toHaveCount(0);
    await expect(tile.getByRole('button', { name: /^Remove / })).toBeVisible();
    await expect(row).toHaveAttribute('data-refused', 'true');
    await expect(row).toContainText(FILE_MESSAGES.notVideo);
    await expect(row.getByTestId('upload-row-percent')).toHaveText('Refused');
    await expect(row.locator('.mini-progress')).toHaveCount(0);
    await expect(row.getByRole('button', { name: /^Resume / })).toHaveCount(0);
    await expect(popup).toContainText('1 file was refused');
    await expect(popup).not.toContainText('Uploads complete');
    await expect(popup.getByTestId('overall-percent')).toHaveCount(0);
    await expect(page.getByTestId('asset-section-INTERVIEW_CLIP')).toContainText('1 refused');
  };
  await refusedAsItShould();

  // The popup sits in the bottom-right corner, over the side column. With the brief's Save
  // button scrolled just above the window's bottom edge, under the open popup:
  const save = page.getByRole('button', { name: 'Save brief' });
  await page.getByLabel('Goal').fill('Raise the seed round');
  const toBottom = async (gap: number) => {
    await page.evaluate((px) => {
      const button = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Save brief')!;
      window.scrollBy(0, button.getBoundingClientRect().bottom - (window.innerHeight - px));
    }, gap);
  };
  await toBottom(90);
  // moving to it from the last field (Tab) scrolls it above the popup,
  await page.getByRole('textbox', { name: 'Brief', exact: true }).evaluate((field: HTMLTextAreaElement) => field.focus({ preventScroll: true }));
  await page.keyboard.press('Tab');
  await expect(save).toBeFocused();
  await page.screenshot({ path: 'test-results/upload-refusal-save-brief.png' });
  expect(await uncovered(page, 'Save brief')).toBe(true);
  // and collapsing the popup to its header frees it where it stands.
  await toBottom(90);
  expect(await uncovered(page, 'Save brief')).toBe(false);
  await popup.getByRole('button', { expanded: true }).click();
  await expect(row).toHaveCount(0);
  expect(await uncovered(page, 'Save brief')).toBe(true);
  await save.click();
  await expect(page.getByText('Brief saved.')).toBeVisible();

  // After a reload: still refused, still the server's reason (not "Select the file again").
  await page.reload();
  await refusedAsItShould();

  // A refused clip does not hold up Send to editing, neither before nor after it is removed.
  await page.getByRole('button', { name: 'Send to editing' }).click();
  await expect(page.getByTestId('incomplete-clips-INTERVIEW_CLIP')).toHaveCount(0);
  await expect(page.getByText(CREDIT_MESSAGES.incompleteClips)).toHaveCount(0);
  // A new organization has no credit: the next step is the plans dialog, past the upload checks.
  const noCredit = page.getByRole('dialog', { name: 'You have no credits left' });
  await expect(noCredit).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(noCredit).toHaveCount(0);

  await tile.getByRole('button', { name: /^Remove / }).click();
  await expect(tile).toHaveCount(0);
  await expect(popup).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('asset-section-INTERVIEW_CLIP')).toBeVisible();
  await expect(page.getByTestId('pending-tile')).toHaveCount(0);
  await page.getByRole('button', { name: 'Send to editing' }).click();
  await expect(page.getByRole('dialog', { name: 'You have no credits left' })).toBeVisible();
  await expect(page.getByTestId('incomplete-clips-INTERVIEW_CLIP')).toHaveCount(0);
});

/** nginx 1.22's own answer to a body over client_max_body_size (Debian's default: 1 MB). */
const NGINX_413 =
  '<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n';

test('an upload a proxy refuses as too large (413) says so and what to ask for, and resumes once it is let through', async ({ page, request }) => {
  const email = `proxy-413-${unique()}@example.com`;
  const { headers, organizationId } = await registerOwner(request, {
    email,
    password: 'demo-password',
    firstName: 'Pia',
    lastName: 'Proxy',
    organizationName: `Proxy Limits ${unique()}`,
  });
  const created = await request.post(`/api/v1/organizations/${organizationId}/projects`, {
    headers,
    data: { name: `Proxy limit ${unique()}`, audience: 'Investors', goal: 'Raise the round', finalVideoLength: '1-2 minutes', brief: 'Behind a proxy.' },
  });
  const projectId = ((await created.json()) as { id: number }).id;
  const { generateClip } = await import('../tests/support/media.ts');
  // The proxy's no, for every upload request with a body to the store. Playwright routes a
  // dedicated worker's requests, not a shared one's: this page runs its uploads in the dedicated
  // worker browsers without SharedWorker get (src/shared/uploads/upload-client.ts).
  await page.addInitScript(() => Reflect.deleteProperty(globalThis, 'SharedWorker'));
  let limited = true;
  await page.route(/\/s3\//, (route) =>
    limited && route.request().method() === 'PUT' ? route.fulfill({ status: 413, contentType: 'text/html', body: NGINX_413 }) : route.continue(),
  );
  await customerSignIn(page, email);
  await page.goto(`/user/project/${projectId}`);
  await page
    .getByTestId('upload-input-INTERVIEW_CLIP')
    .setInputFiles({ name: 'behind-a-proxy.mp4', mimeType: 'video/mp4', buffer: await generateClip({ seconds: 1, width: 160, height: 120 }) });
  const tile = page.getByTestId('pending-tile');
  await expect(tile).toContainText(UPLOAD_MESSAGES.tooLargeForProxy);
  await expect(tile).not.toHaveAttribute('data-refused', 'true');
  await expect(page.getByTestId('uploads-popup').getByTestId('upload-row')).toContainText('client_max_body_size');
  // The administrator raised the limit: Resume finishes it.
  limited = false;
  await tile.getByTestId('resume-upload').click();
  await expect(page.getByTestId('asset-section-INTERVIEW_CLIP').getByTestId('asset-tile')).toHaveCount(1, { timeout: 30_000 });
});
