import { expect, test } from '@playwright/test';
import { registerOwner } from './fresh-organization.ts';
import { customerSignIn, staffSignIn } from './sign-in.ts';

const unique = () => `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;

/**
 * Issue 13: a person switches off the "version ready" e-mails in Settings and the choice stays
 * after a reload (it is saved on the server, not in the page).
 */
test('an owner switches off "version ready" e-mails in Settings; it sticks after a reload', async ({ page, request }) => {
  const email = `mail-${unique()}@e2e.cutdesk.test`;
  await registerOwner(request, { email, password: 'demo-password', firstName: 'Mara', lastName: 'Mailwise', organizationName: `Mail Prefs ${unique()}` });
  await customerSignIn(page, email);
  await page.goto('/user/admin-settings');
  const card = page.getByRole('region', { name: 'Review e-mails' });
  const ready = card.getByRole('checkbox', { name: /Version ready for review/ });
  await expect(ready).toBeChecked();
  await expect(card.getByRole('checkbox', { name: /Daily comment digest/ })).toBeChecked();
  await page.setViewportSize({ width: 1440, height: 900 });
  await ready.uncheck();
  await expect(ready).not.toBeChecked();
  await expect(ready).toBeEnabled();
  await page.reload();
  await expect(page.getByRole('region', { name: 'Review e-mails' }).getByRole('checkbox', { name: /Version ready for review/ })).not.toBeChecked();
  await expect(page.getByRole('region', { name: 'Review e-mails' }).getByRole('checkbox', { name: /Review reminder/ })).toBeChecked();
  if (process.env.MAIL_SHOTS) await page.screenshot({ path: `${process.env.MAIL_SHOTS}/settings.png` });
});

test('staff find their own review e-mails, "Changes requested" included, under Admin settings → My e-mails', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await staffSignIn(page, 'admin@demo.cutdesk.test');
  await page.goto('/admin-settings');
  await page.getByRole('tab', { name: 'My e-mails' }).click();
  const card = page.getByRole('region', { name: 'Review e-mails' });
  await expect(card.getByRole('checkbox')).toHaveCount(4);
  await expect(card.getByRole('checkbox', { name: /Changes requested/ })).toBeVisible();
  if (process.env.MAIL_SHOTS) await page.screenshot({ path: `${process.env.MAIL_SHOTS}/staff.png` });
});
