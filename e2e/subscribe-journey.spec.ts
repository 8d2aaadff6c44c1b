import { expect, test } from '@playwright/test';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/**
 * Issue 11's bar: a new owner goes from registration to a paid subscription and a project in
 * editing entirely in the browser, and staff see the onboarding kit the purchase ordered.
 */
test('a new owner registers, subscribes from the pricing page, sends a project to editing; staff see the kit', async ({ page, browser }) => {
  const id = unique();
  const email = `payer-${id}@example.com`;
  const organization = `Payer Films ${id}`;

  await page.goto('/register');
  await page.getByLabel('First name').fill('Pat');
  await page.getByLabel('Last name').fill('Payer');
  await page.getByLabel('Phone').fill('5550142');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('payer-pass-1');
  await page.getByLabel('Re-enter password').fill('payer-pass-1');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Company / organization name').fill(organization);
  await page.getByRole('button', { name: 'Create organization' }).click();
  await expect(page).toHaveURL(/\/user\/projects$/);
  await expect(page.getByTestId('credits-meter')).toHaveText('No credits');

  // The footer's Pricing link, then a plan: the checkout opens with that plan chosen.
  await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  await page.getByRole('link', { name: /Choose Starter/ }).click();
  await expect(page).toHaveURL(/\/user\/admin-settings\?tab=subscription&plan=\d+$/);
  const summary = page.getByRole('complementary', { name: 'Order summary' });
  await expect(summary).toContainText('Starter');
  await summary.getByLabel('Coupon code').fill('launch100');
  await expect(summary.getByTestId('summary-discount')).toHaveText(/^−\$100\.00$/);

  const billing = page.getByRole('region', { name: 'Billing details' });
  await billing.getByLabel('Full name').fill('Pat Payer');
  await billing.getByLabel('Company').fill(organization);
  await billing.getByLabel('Phone', { exact: true }).fill('+1 555 0142');
  await billing.getByLabel('Second phone').fill('555 0143');
  await billing.getByLabel('E-mail').fill(email);
  await billing.getByLabel('Address').fill('1 Main Street');
  await billing.getByLabel('City').fill('Austin');
  await billing.getByLabel('Postal code').fill('73301');
  await billing.getByLabel('Country').selectOption({ label: 'United States' });
  const payment = page.getByRole('region', { name: 'Payment' });
  await payment.getByLabel('Card number').fill('4242 4242 4242 4242');
  await payment.getByLabel('Expiration (MM/YY)').fill('11/33');
  await payment.getByLabel('CVC').fill('321');
  await payment.getByLabel('Name on card').fill('Pat Payer');
  await summary.getByRole('button', { name: /^Pay / }).click();

  await expect(page.getByRole('region', { name: 'Your subscription' })).toContainText('Starter');
  const meter = page.getByTestId('credits-meter');
  await expect(meter).toHaveText(/^0 \/ [1-9]\d*$/);
  const granted = (await meter.textContent())!.split('/')[1]!.trim();

  // A project, sent to editing with the credit just bought.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
  await page.getByRole('link', { name: 'Create a project' }).click();
  await page.getByLabel('Project name').fill(`First film ${id}`);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Audience').fill('Customers');
  await page.getByLabel('Goal').fill('Launch');
  await page.getByLabel('Length').selectOption('0-60 seconds');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Brief').fill('Our story in one minute.');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page).toHaveURL(/\/user\/project\/\d+$/);
  await page.getByRole('button', { name: 'Send to editing' }).click();
  await page.getByRole('dialog', { name: 'Send to editing?' }).getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('status-banner')).toContainText('Editing');
  await expect(meter).toHaveText(`1 / ${granted}`);

  // Staff: the purchase ordered the onboarding kit.
  const staff = await browser.newPage();
  await staff.goto('/login');
  await staff.getByLabel('E-mail').fill('admin@demo.cutdesk.test');
  await staff.getByRole('button', { name: 'Continue' }).click();
  await staff.getByLabel('Password').fill('demo-password');
  await staff.getByRole('button', { name: 'Sign in' }).click();
  await expect(staff).toHaveURL(/\/dashboard$/);
  await staff.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Onboarding' }).click();
  const row = staff.getByRole('row').filter({ hasText: organization });
  await expect(row).toContainText('Ordered');
  await expect(row).toContainText('active');
  await staff.close();
});
