import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { registerOwner } from './fresh-organization.ts';

// The app as installed, service worker included: the console must stay clean with it too.
test.use({ serviceWorkers: 'allow' });

/**
 * Issue 12 "installed app": bookmarks opened signed out, document titles, sign-out across tabs,
 * error panels instead of blank pages, and no console errors on the server's expected answers.
 * Every test makes its own organization, so no other spec's data is touched.
 */

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
/** Chromium's own line for any non-2xx fetch: the browser's, not the app's. */
const BROWSER_RESOURCE_LINE = /^Failed to load resource: the server responded with a status of 4\d\d/;

/** A new owner with an organization and one project, all through the API. */
async function newOwnerWithProject(request: APIRequestContext, projectName = 'Brand anthem') {
  const id = unique();
  const email = `resilience-${id}@example.com`;
  const password = 'first-pass-1';
  const { headers, organizationId } = await registerOwner(request, {
    email,
    password,
    firstName: 'Robin',
    lastName: `Resilience ${id}`,
    organizationName: `Resilience ${id}`,
  });
  const project = await request.post(`/api/v1/organizations/${organizationId}/projects`, {
    data: { name: projectName, audience: 'Everyone', goal: 'Sign-ups', finalVideoLength: '0-60 seconds', brief: 'Short and bright.' },
    headers,
  });
  expect(project.status()).toBe(201);
  const { id: projectId } = (await project.json()) as { id: number };
  return { email, password, projectId, headers };
}

async function signIn(page: Page, email: string, password: string, landing: RegExp) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(landing);
}

/** Console errors and uncaught exceptions of the page, the browser's resource line left out. */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !BROWSER_RESOURCE_LINE.test(message.text())) problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

test('a bookmarked project opened signed out asks to sign in and then opens that project, titled by its name', async ({ page }) => {
  const name = `Brand anthem ${unique()}`;
  const { email, password, projectId } = await newOwnerWithProject(page.request, name);
  await page.goto(`/user/project/${projectId}`);
  await expect(page).toHaveURL(new RegExp(`/login/user\\?next=${encodeURIComponent(`/user/project/${projectId}`)}$`));
  await expect(page).toHaveTitle('Sign in · Cutdesk');

  await signIn(page, email, password, new RegExp(`/user/project/${projectId}$`));
  await expect(page.getByTestId('status-banner')).toBeVisible();
  await expect(page).toHaveTitle(`${name} · Cutdesk`);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
  await expect(page).toHaveURL(/\/user\/projects$/);
  await expect(page).toHaveTitle('Projects · Cutdesk');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Content Library' }).click();
  await expect(page).toHaveTitle('Content Library · Cutdesk');
});

test('staff see the project name as the title of a project page, and a bookmarked staff page returns after sign-in', async ({ page }) => {
  const name = `Brand anthem ${unique()}`;
  const { projectId } = await newOwnerWithProject(page.request, name);
  await page.goto(`/project/${projectId}`);
  await expect(page).toHaveURL(new RegExp(`/login\\?next=${encodeURIComponent(`/project/${projectId}`)}$`));
  await page.getByLabel('E-mail').fill('admin@demo.cutdesk.test');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password').fill('demo-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${projectId}$`));
  await expect(page).toHaveTitle(`${name} · Cutdesk`);
  await page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveTitle('Dashboard · Cutdesk');
});

test('signing out in one tab sends the other tab to sign in; signing in again signs both in', async ({ page, context }) => {
  const { email, password } = await newOwnerWithProject(page.request);
  await page.goto('/login/user');
  await signIn(page, email, password, /\/user\/projects$/);

  const second = await context.newPage();
  await second.goto('/user/content-library');
  await expect(second).toHaveTitle('Content Library · Cutdesk');

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login\/user$/);
  await expect(second).toHaveURL(/\/login\/user$/);
  await expect(second.getByLabel('Password')).toBeVisible();
  expect(await second.evaluate(() => localStorage.getItem('cutdesk.token'))).toBeNull();

  await signIn(page, email, password, /\/user\/projects$/);
  await expect(second).toHaveURL(/\/user\/projects$/);
  await expect(second.getByRole('navigation', { name: 'Main' })).toBeVisible();
});

test('signing out clears the upload queue of that user, and only theirs', async ({ page }) => {
  const { email, password } = await newOwnerWithProject(page.request);
  await page.goto('/login/user');
  await signIn(page, email, password, /\/user\/projects$/);
  const userId = await page.evaluate(() => (JSON.parse(localStorage.getItem('cutdesk.me')!) as { id: number }).id);

  /** Adds an (unfinished, fileless) upload record for `owner`, or counts the records of `owner`. */
  const uploads = (owner: number, add: boolean) =>
    page.evaluate(
      ({ owner, add }) =>
        new Promise<number>((resolve, reject) => {
          const open = indexedDB.open('cutdesk-uploads', 1);
          open.onupgradeneeded = () => open.result.createObjectStore('uploads', { keyPath: 'uid' }).createIndex('byUser', 'userId');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            const store = db.transaction('uploads', 'readwrite').objectStore('uploads');
            if (add)
              store.put({
                uid: `e2e-${owner}-${Math.random()}`,
                userId: owner,
                organizationId: 1,
                projectId: 1,
                fileName: 'clip.mp4',
                size: 1,
                lastModified: 0,
                parts: [],
                status: 'incomplete',
                createdAt: 0,
                updatedAt: 0,
              });
            const count = store.index('byUser').count(owner);
            count.onsuccess = () => {
              db.close();
              resolve(count.result);
            };
          };
        }),
      { owner, add },
    );
  const someoneElse = userId + 1_000_000;
  expect(await uploads(userId, true)).toBeGreaterThan(0);
  const othersBefore = await uploads(someoneElse, true);

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login\/user$/);
  await expect.poll(() => uploads(userId, false)).toBe(0);
  expect(await uploads(someoneElse, false)).toBe(othersBefore);
});

test('a page that throws while rendering shows a panel with a way back inside a working shell', async ({ page }) => {
  const { email, password, projectId } = await newOwnerWithProject(page.request);
  // An answer the page cannot draw: a calendar date that does not exist fails the date formatter.
  await page.route(`**/api/v1/projects/${projectId}`, async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    const response = await route.fetch();
    const project = (await response.json()) as Record<string, unknown>;
    await route.fulfill({ response, json: { ...project, status: { name: 'WAITING_FOR_EDITOR' }, createdAt: '2027-13-45' } });
  });
  await page.goto('/login/user');
  await signIn(page, email, password, /\/user\/projects$/);
  await page.goto(`/user/project/${projectId}`);

  const panel = page.getByRole('alert').filter({ hasText: 'Something went wrong on this page' });
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Try again' })).toBeVisible();
  // The shell around it still works.
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByTestId('credits-meter')).toBeVisible();

  await panel.getByRole('link', { name: 'Back to Projects' }).click();
  await expect(page).toHaveURL(/\/user\/projects$/);
  await expect(panel).toHaveCount(0);
  await expect(page.locator('article.project-card').first()).toBeVisible();

  // Another route resets the boundary: the broken page breaks again, the menu leads away again.
  await page.goto(`/user/project/${projectId}`);
  await expect(panel).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Content Library' }).click();
  await expect(page).toHaveURL(/\/user\/content-library$/);
  await expect(panel).toHaveCount(0);
});

test.describe('a chunk removed by a deploy', () => {
  // The service worker would answer the chunk from its cache: the test needs the network's answer.
  test.use({ serviceWorkers: 'block' });

  test('shows the panel with Reload inside the shell', async ({ page }) => {
    const { email, password, projectId } = await newOwnerWithProject(page.request);
    await page.route(/\/assets\/project-page-[^/]*\.js$/, (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.goto('/login/user');
    await signIn(page, email, password, /\/user\/projects$/);
    await page.goto(`/user/project/${projectId}`);

    const panel = page.getByRole('alert').filter({ hasText: 'This page could not be loaded' });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Reload' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  });
});

test('no console errors on a wrong password nor on a deleted project', async ({ page }) => {
  const { email, password, projectId, headers } = await newOwnerWithProject(page.request);
  expect((await page.request.delete(`/api/v1/projects/${projectId}`, { headers })).ok()).toBe(true);
  const problems = watchConsole(page);

  await page.goto('/login/user');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('.form-error')).toBeVisible();
  await expect(page).toHaveURL(/\/login\/user$/);

  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/user\/projects$/);
  await page.goto(`/user/project/${projectId}`);
  await expect(page.getByText('Project not found')).toBeVisible();
  await expect(page).toHaveTitle('Project · Cutdesk');

  expect(problems).toEqual([]);
});
