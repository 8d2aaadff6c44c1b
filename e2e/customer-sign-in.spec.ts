import { expect, test } from '@playwright/test';
import { MESSAGES } from '../src/domain/messages.ts';
import { FIELD_MESSAGES } from '../src/domain/validation.ts';
import { unique } from './api-helpers.ts';

/**
 * The customer's sign-in and registration pages (/login, /login/user, /register): a failed
 * sign-in, a registration left after the account step, the register form's rows.
 */

test('a registration left after the account step continues at the organization step on the next sign-in', async ({ page, browser }) => {
  const email = `abandoned-${unique()}@example.com`;
  await page.goto('/register');
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Phone').fill('5550123');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('demo-password');
  await page.getByLabel('Re-enter password').fill('demo-password');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Name your organization' })).toBeVisible();

  // Another day, another browser: sign in.
  const context = await browser.newContext();
  const later = await context.newPage();
  await later.goto('/login/user');
  await later.getByLabel('E-mail').fill(email);
  await later.getByLabel('Password').fill('demo-password');
  await later.getByRole('button', { name: 'Sign in' }).click();
  await expect(later).toHaveURL(/\/register$/);
  await expect(later.getByRole('heading', { name: 'Name your organization' })).toBeVisible();
  await later.getByLabel('Company / organization name').fill(`Ada Films ${unique()}`);
  await later.getByRole('button', { name: 'Create organization' }).click();
  await expect(later).toHaveURL(/\/user\/projects$/);
  await expect(later.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible();
  await context.close();
});

test('a failed sign-in has one contact link, and the password step does not start with an error', async ({ page }) => {
  await page.goto('/login/user');
  await page.getByLabel('E-mail').fill('owner@demo.cutdesk.test');
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const error = page.locator('.form-error');
  await expect(error).toHaveText(MESSAGES.loginFailed);
  await expect(error.getByRole('link')).toHaveCount(1);
  await expect(error.getByRole('link')).toHaveText('here');

  await page.goto('/login');
  await page.getByLabel('E-mail').fill('owner@demo.cutdesk.test');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel('Password')).toBeVisible();
  await expect(page.getByText(FIELD_MESSAGES.passwordRequired)).toHaveCount(0);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(FIELD_MESSAGES.passwordRequired)).toBeVisible();
});

test('register rows are as wide as single fields', async ({ page }) => {
  await page.goto('/register');
  const first = (await page.getByLabel('First name').boundingBox())!;
  const last = (await page.getByLabel('Last name').boundingBox())!;
  const phone = (await page.getByLabel('Phone').boundingBox())!;
  expect(Math.abs(first.x - phone.x)).toBeLessThanOrEqual(1);
  expect(Math.abs(last.x + last.width - (phone.x + phone.width))).toBeLessThanOrEqual(1);
});

test('the sign-in form comes in the page itself: on screen before the app runs, and what is typed and sent meanwhile signs in once it does (issue 34)', async ({
  browser,
}) => {
  // Without any script the page already shows the form the server sent.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const bare = await noScript.newPage();
  await bare.goto('/login');
  await expect(bare).toHaveTitle('Sign in · Cutdesk');
  await expect(bare.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
  await expect(bare.getByLabel('E-mail')).toBeVisible();
  await expect(bare.getByRole('button', { name: 'Continue' })).toBeVisible();
  await noScript.close();

  // The app's code held back: the visitor types and presses Enter before it has taken over. (The
  // service worker allowed, as in a browser: blocked, its registration fails with a console error.)
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
  page.on('pageerror', (error) => errors.push(error.message));
  let release!: () => void;
  const appArrives = new Promise<void>((done) => (release = done));
  await page.route(/\/assets\/app-[^/]+\.js$/, async (route) => {
    await appArrives;
    await route.continue();
  });
  await page.goto('/login/user', { waitUntil: 'commit' });
  await page.getByLabel('E-mail').fill('owner@demo.cutdesk.test');
  await page.getByLabel('Password').fill('demo-password');
  await page.getByLabel('Password').press('Enter');
  // Held, not sent by the browser (a reload would lose what was typed).
  await expect(page.getByLabel('E-mail')).toHaveValue('owner@demo.cutdesk.test');
  await expect(page).toHaveURL(/\/login\/user$/);

  release();
  await expect(page).toHaveURL(/\/user\/projects$/);
  await expect(page.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible();
  // Hydration found the markup it renders itself: no mismatch, nothing rendered twice.
  expect(errors).toEqual([]);
  await context.close();
});
