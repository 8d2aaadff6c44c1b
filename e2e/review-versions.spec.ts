import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { projectInEditing } from './fresh-organization.ts';
import { customerSignIn, staffSignIn } from './sign-in.ts';

/** The generated clips run at 25 fps. */
const FRAME = 1 / 25;

/**
 * Staff upload a cut on the project page and send it to review once it is registered as version
 * `number` and its preview is ready (Send to review stays disabled until the new cut's preview is
 * processed, issue 36).
 */
async function deliverAndSend(
  staff: Page,
  request: APIRequestContext,
  admin: Record<string, string>,
  projectId: number,
  number: number,
  name: string,
  clip: Buffer,
) {
  await staff.goto(`/project/${projectId}`);
  await staff.getByTestId('final-video-input').setInputFiles({ name, mimeType: 'video/mp4', buffer: clip });
  await expect
    .poll(
      async () => {
        const { versions } = (await (await request.get(`/api/v1/projects/${projectId}/versions`, { headers: admin })).json()) as {
          versions: { number: number; current: boolean; media: { preview: string } | null }[];
        };
        const current = versions.find((version) => version.current);
        if (current?.number !== number || !current.media) return 'not registered';
        return (await request.get(current.media.preview, { maxRedirects: 0 })).status();
      },
      { timeout: 90_000, intervals: [1_000] },
    )
    .toBe(302);
  await staff.reload();
  await expect(staff.getByRole('button', { name: 'Send to review' })).toBeEnabled({ timeout: 30_000 });
  await staff.getByRole('button', { name: 'Send to review' }).click();
  await expect(staff.getByTestId('project-status')).toHaveText('PENDING REVIEW');
}

/** Screenshots for a person to look at, when E2E_SCREENSHOTS names a folder. */
const snap = async (page: Page, name: string) => {
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/${name}.png` });
};

const loaded = (video: Locator) => expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);

/**
 * Versions (issue 13): staff deliver v01, the owner asks for changes, staff deliver a visibly
 * different v02; the owner plays v01 again, compares both side by side and with the wipe, plays
 * them in sync, and approves.
 */
test('the owner plays an older version, compares two versions in sync with a wipe, shares it with a guest who comments, and approves', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const { generateClip } = await import('../tests/support/media.ts');
  const [first, second] = await Promise.all([generateClip({ seconds: 4, width: 640, height: 360 }), generateClip({ seconds: 3, width: 480, height: 360 })]);
  const { projectId, email, password, headers, admin } = await projectInEditing(request, {
    label: 'versions',
    firstName: 'Vera',
    lastName: 'Versions',
    name: 'Launch film',
    audience: 'Customers',
    goal: 'Sign-ups',
    brief: 'Show the product.',
  });

  const staff = await (await browser.newContext()).newPage();
  await staffSignIn(staff, 'admin@demo.cutdesk.test');
  await deliverAndSend(staff, request, admin, projectId, 1, 'launch v1.mp4', first);

  // The owner asks for changes on v01 with an open comment (the server requires one).
  expect(
    (await request.post(`/api/v1/projects/${projectId}/comments`, { headers, data: { version: 1, frame: 10, text: 'Show the logo longer.' } })).status(),
  ).toBe(201);
  expect((await request.post(`/api/v1/projects/${projectId}/submit`, { headers })).ok()).toBe(true);

  await deliverAndSend(staff, request, admin, projectId, 2, 'launch v2.mp4', second);

  const owner = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await customerSignIn(owner, email, password);
  await owner.goto(`/user/project/${projectId}`);
  const panel = owner.getByTestId('review-panel');
  const switcher = panel.getByRole('group', { name: 'Version' });
  await expect(switcher.getByRole('button', { name: /v02/ })).toHaveAttribute('aria-pressed', 'true', { timeout: 60_000 });
  const video = owner.getByTestId('video-player');
  await loaded(video);
  const currentSource = await video.evaluate((v: HTMLVideoElement) => v.currentSrc);

  // v01 plays in the page's player: another source, its own length (4 s against v02's 3 s), its comment.
  await switcher.getByRole('button', { name: /v01/ }).click();
  await expect(panel).toContainText('You are watching v01, an earlier version.');
  await expect(panel.getByTestId('review-thread')).toContainText('Show the logo longer.');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentSrc), { timeout: 30_000 }).not.toBe(currentSource);
  await loaded(video);
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => Math.round(v.duration))).toBe(4);
  // Its comment seeks in it: frame 10 is 00:00:00:10.
  await panel.getByTestId('review-thread').getByRole('button', { name: '00:00:00:10' }).click();
  await expect(owner.getByTestId('playhead-timecode')).toHaveText('00:00:00:10');
  await snap(owner, 'older-version');

  // Compare: v01 against v02, both loaded.
  await panel.getByRole('button', { name: 'Compare versions' }).click();
  const compare = owner.getByRole('dialog', { name: 'Compare versions' });
  await expect(compare.getByLabel('Version A')).toHaveValue('1');
  await expect(compare.getByLabel('Version B')).toHaveValue('2');
  const a = compare.getByTestId('compare-video-a');
  const b = compare.getByTestId('compare-video-b');
  await loaded(a);
  await loaded(b);
  await expect(compare.getByTestId('compare-stage')).toContainText('A · v01');
  await expect(compare.getByTestId('compare-stage')).toContainText('B · v02');
  await expect(compare.getByTestId('compare-timecodes')).toContainText('00:00:00:00');
  await snap(owner, 'compare-side');

  // Played as one, and on pause both show the same frame.
  await compare.getByRole('button', { name: 'Play both' }).click();
  await expect.poll(() => a.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 }).toBeGreaterThan(1);
  expect(await b.evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);
  await compare.getByRole('button', { name: 'Pause both' }).click();
  await expect
    .poll(async () => Math.abs((await a.evaluate((v: HTMLVideoElement) => v.currentTime)) - (await b.evaluate((v: HTMLVideoElement) => v.currentTime))))
    .toBeLessThanOrEqual(FRAME);
  expect(await a.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
  expect(await b.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
  // A frame step moves both.
  const before = await a.evaluate((v: HTMLVideoElement) => v.currentTime);
  await compare.getByRole('button', { name: 'One frame forward' }).click();
  await expect.poll(() => b.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(before + FRAME / 2);
  await snap(owner, 'compare-paused');

  // The wipe: dragged to a quarter, then a step with the keyboard.
  await compare.getByRole('button', { name: 'Wipe' }).click();
  const handle = compare.getByRole('slider', { name: 'Wipe position' });
  await expect(handle).toHaveAttribute('aria-valuenow', '50');
  const stage = await compare.getByTestId('compare-stage').boundingBox();
  await owner.mouse.move(stage!.x + stage!.width / 2, stage!.y + stage!.height / 2);
  await owner.mouse.down();
  await owner.mouse.move(stage!.x + stage!.width / 4, stage!.y + stage!.height / 2, { steps: 5 });
  await owner.mouse.up();
  await expect(handle).toHaveAttribute('aria-valuenow', '25');
  await handle.focus();
  await owner.keyboard.press('ArrowRight');
  await expect(handle).toHaveAttribute('aria-valuenow', '26');
  await owner.keyboard.press('Shift+ArrowLeft');
  await expect(handle).toHaveAttribute('aria-valuenow', '16');
  await expect(b.locator('xpath=..')).toHaveCSS('clip-path', 'inset(0px 84% 0px 0px)');
  await snap(owner, 'compare-wipe');
  await compare.getByRole('button', { name: 'Close' }).click();
  await expect(compare).toHaveCount(0);

  // Back on the current version, the owner approves.
  await switcher.getByRole('button', { name: /v02/ }).click();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentSrc), { timeout: 30_000 }).toBe(currentSource);

  // A guest reviewer: the owner shares v02 behind a password with someone without an account.
  await owner.getByRole('button', { name: 'Share for review' }).click();
  const share = owner.getByRole('dialog', { name: 'Share this video for review' });
  await share.getByLabel('Link works for').selectOption('1');
  await share.getByLabel('Protect with a password').check();
  await share.getByLabel('Password', { exact: true }).fill('guest-pass-42');
  await share.getByRole('button', { name: 'Create link' }).click();
  const link = await share.getByRole('status').getByTestId('share-url').inputValue();
  await expect(share.getByTestId('share-link')).toContainText('Active');
  await snap(owner, 'share-dialog');
  await share.getByRole('button', { name: 'Close' }).click();

  const guest = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await guest.goto(new URL(link).pathname);
  await expect(guest.getByRole('heading', { name: 'This review is protected' })).toBeVisible();
  await guest.getByLabel('Password').fill('not-the-password');
  await guest.getByRole('button', { name: 'Open the review' }).click();
  await expect(guest.getByRole('alert')).toHaveText('That password is not right. Check it and try again.');
  await guest.getByLabel('Password').fill('guest-pass-42');
  await guest.getByRole('button', { name: 'Open the review' }).click();
  await expect(guest.getByRole('heading', { level: 1 })).toContainText('Launch film');
  await expect(guest.getByTestId('guest-review')).toContainText('Shared with you by');
  await loaded(guest.getByTestId('video-player'));
  // Three frames on from the start, with the keyboard as on the members' pages.
  await guest.locator('body').click({ position: { x: 5, y: 300 } });
  for (let i = 0; i < 3; i += 1) await guest.keyboard.press('ArrowRight');
  await expect(guest.getByTestId('playhead-timecode')).toHaveText('00:00:00:03');
  await guest.getByLabel('Your name').fill('Gil Guest');
  await guest.getByPlaceholder('What should change at this frame?').fill('The end card needs our phone number.');
  await guest.getByRole('button', { name: 'Comment', exact: true }).click();
  const guestThread = guest.getByTestId('review-thread').filter({ hasText: 'The end card needs our phone number.' });
  await expect(guestThread).toContainText('Gil Guest');
  await expect(guestThread).toContainText('Guest');
  await expect(guestThread).toContainText('00:00:00:03');
  await snap(guest, 'guest-review');
  // The owner sees it arrive without a reload, signed with the guest's name.
  await expect(panel.getByTestId('review-thread').filter({ hasText: 'The end card needs our phone number.' })).toContainText('Gil Guest', { timeout: 20_000 });

  await owner.getByRole('button', { name: 'Looks great' }).click();
  await owner.getByRole('dialog', { name: 'Approve this video?' }).getByRole('button', { name: 'Approve' }).click();
  await expect(owner.getByTestId('status-banner')).toContainText('Approved');
  // The guest's page hears of it: the conversation is closed, read-only.
  await expect(guest.getByTestId('review-panel')).toContainText('This project is approved: its review comments are read-only.', { timeout: 20_000 });
  await expect(guest.getByTestId('comment-composer')).toHaveCount(0);
});
