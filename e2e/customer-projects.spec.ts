import { expect, test, type Page } from '@playwright/test';
import { customerSignIn as signInAs } from './sign-in.ts';
import { unique } from './api-helpers.ts';

/** "6 / 10" → 6. */
async function creditsUsed(page: Page): Promise<number> {
  const meter = page.getByTestId('credits-meter');
  await expect(meter).toHaveText(/\d+ \/ \d+/);
  return Number((await meter.textContent())!.split('/')[0]!.trim());
}

test('an owner creates a project through the wizard, edits the brief and sends it to editing', async ({ page }) => {
  const name = `Launch ${Date.now().toString(36)}`;
  await signInAs(page, 'owner@demo.cutdesk.test');
  const usedBefore = await creditsUsed(page);

  await page.getByRole('link', { name: 'Create a project' }).click();
  await expect(page).toHaveURL(/\/user\/create-project$/);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('This field is required')).toBeVisible();
  await page.getByLabel('Project name').fill(name);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Audience').fill('New customers');
  await page.getByLabel('Goal').fill('Sign-ups');
  await page.getByLabel('Length').selectOption('0-60 seconds');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Brief').fill('Fast cuts, bright colours, our logo at the end.');
  await page.getByRole('button', { name: 'Create project' }).click();

  await expect(page).toHaveURL(/\/user\/project\/\d+$/);
  await expect(page.getByTestId('status-banner')).toContainText('Assembly');
  await expect(page.locator('.topbar')).toContainText(name);
  await page.getByLabel('Goal').fill('Sign-ups and demo requests');
  await page.getByRole('button', { name: 'Save brief' }).click();
  await expect(page.getByText('Brief saved.')).toBeVisible();

  await page.getByRole('button', { name: 'Send to editing' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send to editing?' });
  await expect(dialog).toContainText('You are submitting a project without any assets.');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('status-banner')).toContainText('Editing');
  await expect(page.getByTestId('sla-timer')).toHaveText(/\d\d:\d\d/);
  await expect.poll(() => creditsUsed(page)).toBe(usedBefore + 1);
  await expect(page.getByLabel('Goal')).toHaveCount(0); // the brief is locked and collapsed now

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
  const editing = page.getByRole('region', { name: 'Editing' });
  await expect(editing.getByRole('link', { name })).toBeVisible();
});

test('the title is renamed inline from the top bar, with errors keeping the editor open', async ({ page }) => {
  await signInAs(page, 'user@demo.cutdesk.test');
  await page.getByRole('link', { name: 'Founder interview' }).click();
  await page.locator('.topbar').getByRole('button', { name: 'Founder interview' }).click();
  await page.getByLabel('Project title').fill('x'.repeat(44));
  await page.getByRole('button', { name: 'Accept title' }).click();
  await expect(page.getByRole('alert')).toHaveText('The name must be at most 43 characters.');
  await page.getByLabel('Project title').fill('Founder interview, final');
  await page.getByLabel('Project title').press('Enter');
  await expect(page.locator('.topbar').getByRole('button', { name: 'Founder interview, final' })).toBeVisible();
});

test('a project in review gets changes requested and a revision submitted', async ({ page }) => {
  await signInAs(page, 'owner@demo.cutdesk.test');
  const review = page.getByRole('region', { name: 'Needs review' });
  await review.getByRole('link', { name: 'Quarterly highlights' }).click();
  await expect(page.getByTestId('status-banner')).toContainText('Needs review');
  // The seeded version has no video file: the page says so rather than "being processed" forever (issue 12).
  await expect(page.getByTestId('video-placeholder')).toContainText('has not been delivered');
  await expect(page.getByTestId('video-placeholder')).not.toContainText('being processed');
  await page.getByRole('button', { name: 'Request changes' }).click();
  await expect(page.getByTestId('review-link')).toHaveAttribute('href', /review\.example\.com/);
  await page.getByRole('button', { name: 'Submit revision' }).click();
  await expect(page.getByTestId('status-banner')).toContainText('Editing');
});

test('an approved video lands in the content library and can be duplicated', async ({ page }) => {
  await signInAs(page, 'user@demo.cutdesk.test');
  await page.getByRole('region', { name: 'Needs review' }).getByRole('link', { name: 'Brand anthem' }).click();
  await page.getByRole('button', { name: 'Looks great' }).click();
  await page.getByRole('dialog', { name: 'Approve this video?' }).getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByTestId('status-banner')).toContainText('Approved');
  // C§4: approved projects collapse the asset sections, at once rather than after a reload (issue 12).
  for (const type of ['INTERVIEW_CLIP', 'BROLL_CLIP', 'ASSET']) {
    await expect(page.getByTestId(`asset-section-${type}`).locator('.upload-section-toggle')).toHaveAttribute('aria-expanded', 'false');
  }
  await expect(page.getByRole('region', { name: 'Download the final video' }).getByRole('button', { name: 'Download HD' })).toBeVisible();

  await page.getByRole('link', { name: 'Content Library' }).click();
  await expect(page.getByRole('heading', { name: /Content Library \(\d+\)/ })).toBeVisible();
  await page.getByRole('button', { name: 'Actions for Brand anthem' }).click();
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Duplicate' }).click();
  await expect(page).toHaveURL(/\/user\/projects$/);
  await expect(
    page
      .getByRole('region', { name: 'Assembly' })
      .getByRole('link', { name: /^Brand anthem \(copy\)/ })
      .first(),
  ).toBeVisible();
});

test('only Assembly projects can be deleted from the board, after confirmation', async ({ page }) => {
  await signInAs(page, 'owner@demo.cutdesk.test');
  await page.getByRole('button', { name: 'Actions for Product walkthrough' }).click();
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Actions for Spring launch teaser' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete this project?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('link', { name: 'Spring launch teaser' })).toHaveCount(0);
});

test('a half-filled wizard survives a narrow window, and widening it again goes back to it by itself', async ({ page }) => {
  await signInAs(page, 'owner@demo.cutdesk.test');
  await page.goto('/user/create-project');
  const name = `Narrow ${unique()}`;
  await page.getByLabel('Project name').fill(name);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Audience').fill('Partners');

  await page.setViewportSize({ width: 700, height: 800 });
  await expect(page).toHaveURL(/\/not-mobile\?from=%2Fuser%2Fcreate-project$/);
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(page).toHaveURL(/\/user\/create-project$/);
  await expect(page.getByLabel('Audience')).toHaveValue('Partners');
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByLabel('Project name')).toHaveValue(name);
  // Cancel forgets the draft.
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.goto('/user/create-project');
  await expect(page.getByLabel('Project name')).toHaveValue('');
});
