import { expect, test, type Page } from '@playwright/test';
import { MESSAGES } from '../src/domain/messages.ts';
import { E2E_DATA_DIR } from '../playwright.config.ts';
import { changePasswordLink } from '../tests/support/outbox.ts';

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;

async function registerOwner(page: Page, email: string, organization: string) {
  await page.goto('/register');
  await page.getByLabel('First name').fill('Rita');
  await page.getByLabel('Last name').fill('Register');
  await page.getByLabel('Phone').fill('5550199');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('first-pass-1');
  await page.getByLabel('Re-enter password').fill('first-pass-1');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Name your organization' })).toBeVisible();
  await page.getByLabel('Company / organization name').fill(organization);
  await page.getByRole('button', { name: 'Create organization' }).click();
}

test('a new owner registers, names the organization and lands on the projects board', async ({ page }) => {
  const email = `owner-${unique()}@example.com`;
  const organization = `Rita Films ${unique()}`;
  await registerOwner(page, email, organization);
  await expect(page).toHaveURL(/\/user\/projects$/);
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
  await expect(page.locator('.topbar')).toContainText('Rita Register');
  await expect(page.locator('.topbar')).toContainText(organization);
  await expect(page.getByTestId('storage-meter')).toContainText('TB');
  await expect(page.getByTestId('credits-meter')).toHaveText('No credits');

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login\/user$/);
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
});

test('registration shows field errors and a used e-mail', async ({ page }) => {
  await page.goto('/register');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('E-mail is required')).toBeVisible();
  await expect(page.getByText('First / Last name are required').first()).toBeVisible();
  await page.getByLabel('First name').fill('Dup');
  await page.getByLabel('Last name').fill('Licate');
  await page.getByLabel('Phone').fill('5550100');
  await page.getByLabel('E-mail').fill('owner@demo.cutdesk.test');
  await page.getByLabel('Password', { exact: true }).fill('secret-1');
  await page.getByLabel('Re-enter password').fill('secret-2');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText("Password and Re-Entered password doesn't match")).toBeVisible();
  await page.getByLabel('Re-enter password').fill('secret-1');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText(MESSAGES.emailAlreadyRegistered)).toBeVisible();
});

test('a forgotten password is recovered through the e-mailed link', async ({ page }) => {
  const email = `forgetful-${unique()}@example.com`;
  await registerOwner(page, email, `Forgetful ${unique()}`);
  await expect(page).toHaveURL(/\/user\/projects$/);
  await page.getByRole('button', { name: 'Log out' }).click();

  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/recover-password$/);
  await page.getByLabel('E-mail').fill(`  ${email}  `);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Check your e-mail.')).toBeVisible();

  const link = await changePasswordLink(E2E_DATA_DIR, email);
  await page.goto(link.pathname + link.search);
  await page.getByLabel('New password', { exact: true }).fill('second-pass-2');
  await page.getByLabel('Confirm new password').fill('second-pass-2');
  await page.getByLabel('Confirm new password').press('Enter');
  await expect(page).toHaveURL(/\/user\/projects$/);
  await expect(page.locator('.topbar')).toContainText('Rita Register');

  // The link is single-use.
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.goto(link.pathname + link.search);
  await page.getByLabel('New password', { exact: true }).fill('third-pass-3');
  await page.getByLabel('Confirm new password').fill('third-pass-3');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('alert')).toHaveText(MESSAGES.recoveryCodeInvalid);
});

test('staff sign in in two steps and land on the dashboard', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByLabel('Password')).toHaveCount(0);
  await page.getByLabel('E-mail').fill('admin@demo.cutdesk.test');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText(MESSAGES.loginFailed);
  await page.getByLabel('Password').fill('demo-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const menu = page.getByRole('navigation', { name: 'Staff' });
  await expect(menu.getByRole('link')).toHaveText(['Dashboard', 'Customers', 'Editors', 'Onboarding', 'Settings']);
  await expect(page.locator('.staff-top')).toContainText('Alex Admin');

  // Staff cannot open the customer portal; a reload keeps the session.
  await page.goto('/user/projects');
  await expect(page).toHaveURL(/\/404$/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('an editor sees only the Dashboard entry', async ({ page }) => {
  await page.goto('/login/user');
  await page.getByLabel('E-mail').fill('editor@demo.cutdesk.test');
  await page.getByLabel('Password').fill('demo-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('navigation', { name: 'Staff' }).getByRole('link')).toHaveText(['Dashboard']);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('a narrow window is sent to the desktop notice, also when narrowed in the app', async ({ page }) => {
  await page.setViewportSize({ width: 700, height: 800 });
  await page.goto('/login/user');
  await expect(page).toHaveURL(/\/not-mobile\?from=%2Flogin%2Fuser$/);
  await expect(page.getByRole('heading', { name: 'Cutdesk works on a desktop' })).toBeVisible();
  // A signed-out deep link: to sign in, then on to the notice (it stayed blank on the way).
  for (const deepLink of ['/dashboard', '/user/projects']) {
    await page.goto(deepLink);
    await expect(page.getByRole('heading', { name: 'Cutdesk works on a desktop' })).toBeVisible();
  }

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/login/user');
  await page.getByLabel('E-mail').fill('owner@demo.cutdesk.test');
  await page.getByLabel('Password').fill('demo-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/user\/projects$/);
  await page.setViewportSize({ width: 768, height: 800 });
  await expect(page).toHaveURL(/\/not-mobile\?from=%2Fuser%2Fprojects$/);
});

test('an unknown path shows the 404 page, whose slider recolours the clapboard and go-back returns', async ({ page }) => {
  await page.goto('/help');
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByRole('heading', { name: "Cut! This scene doesn't exist." })).toBeVisible();
  const clapboard = page.getByTestId('clapboard');
  await expect(clapboard).toHaveAttribute('data-colour', '#93D35A');
  await page.getByLabel('Clapboard colour').fill('200');
  await expect(clapboard).not.toHaveAttribute('data-colour', '#93D35A');
  await page.getByRole('link', { name: '← Go back' }).click();
  await expect(page).toHaveURL(/\/help$/);
});

test("a trial user's sign-in link from staff fills in their e-mail and leads on to the pricing page", async ({ page }) => {
  await page.goto('/login/user?email=bea%40bluefern.demo.cutdesk.test&next=/pricing');
  await expect(page.getByLabel('E-mail')).toHaveValue('bea@bluefern.demo.cutdesk.test');
  await page.getByLabel('Password').fill('demo-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
});
