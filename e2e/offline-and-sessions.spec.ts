import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_DATA_DIR } from '../playwright.config.ts';
import { changePasswordLink } from '../tests/support/outbox.ts';
import { registerOwner } from './fresh-organization.ts';

// Offline start comes from the service worker's precache.
test.use({ serviceWorkers: 'allow' });

/** The server's data directory (a private run may point elsewhere): the recovery mails are read there. */
const DATA_DIR = process.env.E2E_DATA_DIR ?? E2E_DATA_DIR;
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const OFFLINE_TEXT = 'You are offline — showing what was last loaded. Changes need a connection.';

async function signIn(page: Page, email: string, password: string, landing: RegExp) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(landing);
}

/** How many answers the offline cache holds (the store is created when the app has not yet). */
function cachedAnswers(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const request = indexedDB.open('cutdesk-offline');
        request.onupgradeneeded = () => request.result.createObjectStore('answers', { keyPath: 'key' });
        request.onerror = () => resolve(-1);
        request.onsuccess = () => {
          const db = request.result;
          const count = db.transaction('answers', 'readonly').objectStore('answers').count();
          count.onsuccess = () => {
            db.close();
            resolve(count.result);
          };
        };
      }),
  );
}

/**
 * The name of the first project card once the board has loaded. Other specs move the demo
 * projects between sections meanwhile, so the tests take whatever the board shows.
 */
async function firstCardName(page: Page): Promise<string> {
  const card = page.locator('article.project-card').first();
  await expect(card).toBeVisible();
  return (await card.getAttribute('aria-label'))!;
}

/** Every item the app keeps in localStorage, by key. */
function stored(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => Object.fromEntries(Object.keys(localStorage).map((key) => [key, localStorage.getItem(key) ?? ''])));
}

/** A new owner with an organization and one project in assembly, all through the API. */
async function newOwnerWithProject(request: APIRequestContext) {
  const id = unique();
  const email = `offline-${id}@example.com`;
  const password = 'first-pass-1';
  const { headers, organizationId } = await registerOwner(request, {
    email,
    password,
    firstName: 'Sasha',
    lastName: `Session ${id}`,
    organizationName: `Sessions ${id}`,
  });
  const project = await request.post(`/api/v1/organizations/${organizationId}/projects`, {
    data: { name: 'Session test', audience: 'Everyone', goal: 'Sign-ups', finalVideoLength: '0-60 seconds', brief: 'Short and bright.' },
    headers,
  });
  expect(project.status()).toBe(201);
  const { id: projectId } = (await project.json()) as { id: number };
  return { email, password, projectId };
}

test('the installed app starts offline signed in, with the last board and the actions that need the server disabled', async ({ page, context }) => {
  await page.goto('/login/user');
  await signIn(page, 'owner@demo.cutdesk.test', 'demo-password', /\/user\/projects$/);
  const shown = await firstCardName(page);
  // The built app registers its service worker, which precaches the app shell.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // The board's three sections and the organization are kept for offline use.
  await expect.poll(() => cachedAnswers(page)).toBeGreaterThanOrEqual(3);

  await context.setOffline(true);
  await page.reload();
  await expect(page).toHaveURL(/\/user\/projects$/);
  await expect(page.getByTestId('offline-banner')).toHaveText(OFFLINE_TEXT);
  await expect(page.locator('.topbar')).toContainText('Olivia Owner');
  await expect(page.getByRole('link', { name: shown, exact: true }).first()).toBeVisible();
  const create = page.getByText('Create a project');
  await expect(create).toHaveAttribute('aria-disabled', 'true');
  await expect(create).toHaveAttribute('title', 'Needs a connection');
  await create.click({ force: true });
  await expect(page).toHaveURL(/\/user\/projects$/);

  await context.setOffline(false);
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Create a project' })).toBeVisible();
});

test('a 401 in the middle of a session sends the customer to sign in and back to the same project', async ({ page, playwright }) => {
  const { email, password, projectId } = await newOwnerWithProject(page.request);
  await page.goto('/login/user');
  await signIn(page, email, password, /\/user\/projects$/);
  // When a session ends, the server ends its pages' live updates with a resync, and the page's
  // reads then send the customer to sign in by themselves (issue 36). This test is about an
  // action's 401: the page's stream never starts (its ticket never comes), so Save is its next call.
  const ticket = `**/api/v1/projects/${projectId}/events/ticket`;
  await page.route(ticket, () => undefined);
  await page.goto(`/user/project/${projectId}`);
  await expect(page.getByTestId('status-banner')).toContainText('Assembly');

  // Another device resets the password: every older session ends.
  const other = await playwright.request.newContext({ baseURL: new URL(page.url()).origin });
  expect((await other.put('/api/v1/password-recover', { data: { email } })).ok()).toBe(true);
  const link = await changePasswordLink(DATA_DIR, email);
  const reset = await other.put('/api/v1/password-recover-complete', {
    data: { email, recoveryCode: link.searchParams.get('code'), newPassword: 'second-pass-2' },
  });
  expect(reset.ok()).toBe(true);
  await other.dispose();

  // The next call of this page (not GET me) answers 401.
  await page.getByLabel('Goal').fill('Sign-ups and demos');
  await page.getByRole('button', { name: 'Save brief' }).click();
  await expect(page).toHaveURL(new RegExp(`/login/user\\?next=${encodeURIComponent(`/user/project/${projectId}`)}$`));
  expect((await stored(page))['cutdesk.token']).toBeUndefined();
  await page.unroute(ticket);

  await signIn(page, email, 'second-pass-2', new RegExp(`/user/project/${projectId}$`));
  await expect(page.getByTestId('status-banner')).toContainText('Assembly');
});

test('an admin signed in as a customer whose customer token gets a 401 returns to their own session', async ({ page }) => {
  await page.goto('/login/user');
  await signIn(page, 'admin@demo.cutdesk.test', 'demo-password', /\/dashboard$/);
  await page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Customers' }).click();
  await page.getByRole('button', { name: 'Log In As Demo Studio' }).click();
  await expect(page).toHaveURL(/\/user\/projects$/);
  // The board and the top bar have loaded: the next call is the one the test makes.
  const shown = await firstCardName(page);
  await expect(page.getByTestId('credits-meter')).toHaveText(/\d+ \/ \d+/);
  const customerToken = JSON.parse((await stored(page))['cutdesk.token']!) as string;
  // The server refuses the customer token from now on (as when the owner's sessions are ended).
  await page.route('**/api/v1/**', (route) =>
    route.request().headers().authorization === `Bearer ${customerToken}`
      ? route.fulfill({ status: 401, json: { message: 'Sign in again.' } })
      : route.fallback(),
  );
  await page.getByRole('link', { name: shown, exact: true }).first().click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.locator('.staff-top')).toContainText('Alex Admin');
  await expect(page.getByRole('status').filter({ hasText: 'You are signed in as' })).toHaveCount(0);
  const left = await stored(page);
  expect(Object.keys(left).sort()).toEqual(['cutdesk.me', 'cutdesk.token']);
  expect(JSON.parse(left['cutdesk.token']!)).not.toBe(customerToken);
});

test('a return path that leaves the site is ignored after sign-in', async ({ page }) => {
  await page.goto('/login/user?next=%2F%2Fevil.example%2Fuser%2Fprojects');
  await signIn(page, 'user@demo.cutdesk.test', 'demo-password', /^http:\/\/localhost:\d+\/user\/projects$/);
});

test('after sign-out no customer data stays in the browser, also after an admin leaves a customer session', async ({ page }) => {
  await page.goto('/login/user');
  await signIn(page, 'owner@demo.cutdesk.test', 'demo-password', /\/user\/projects$/);
  await firstCardName(page);
  await expect.poll(async () => Object.keys(await stored(page))).toContain('cutdesk.projects');
  await expect.poll(() => cachedAnswers(page)).toBeGreaterThan(0);

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login\/user$/);
  expect(Object.keys(await stored(page)).filter((key) => key.startsWith('cutdesk.'))).toEqual([]);
  expect(await cachedAnswers(page)).toBe(0);

  // An admin signed in as the customer: Admin logout keeps the admin's session, not the customer's data.
  await signIn(page, 'admin@demo.cutdesk.test', 'demo-password', /\/dashboard$/);
  await page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Customers' }).click();
  await page.getByRole('button', { name: 'Log In As Demo Studio' }).click();
  await expect(page).toHaveURL(/\/user\/projects$/);
  await firstCardName(page);
  await expect.poll(async () => Object.keys(await stored(page))).toContain('cutdesk.projects');
  await page.getByRole('button', { name: 'Admin logout' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const left = await stored(page);
  expect(Object.keys(left).sort()).toEqual(['cutdesk.me', 'cutdesk.token']);
  expect(JSON.parse(left['cutdesk.me']!)).toMatchObject({ email: 'admin@demo.cutdesk.test', organizationId: null });
  expect(await cachedAnswers(page)).toBe(0);
});
