import { expect, test } from '@playwright/test';
import { customerSignIn as signInAs } from './sign-in.ts';

/** The help page (/help): its contents, the way back, and the privacy section the footer links to. */

test('the help page has contents, a way back and a privacy section the footer links to', async ({ page }) => {
  await signInAs(page, 'owner@demo.cutdesk.test');
  await expect(page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Privacy' })).toHaveAttribute('href', '/help#privacy');
  await page.goto('/help#privacy');
  const privacy = page.getByRole('heading', { name: 'Privacy', level: 2 });
  await expect(privacy).toBeInViewport();
  await expect(page.getByRole('navigation', { name: 'Help contents' }).getByRole('link')).toHaveCount(8);
  await page.getByTestId('help-back').click();
  await expect(page).toHaveURL(/\/user\/projects$/);
});
