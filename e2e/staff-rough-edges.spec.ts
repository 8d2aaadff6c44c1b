import { expect, test, type APIRequestContext } from '@playwright/test';
import { staffSignIn } from './sign-in.ts';
import { FIELD_MESSAGES } from '../src/domain/validation.ts';
import { grantCredits, registerOwner } from './fresh-organization.ts';
import { businessToday } from '../src/domain/business-calendar.ts';
import { US_FEDERAL_CALENDAR, dateOfDayNumber, dayNumberOfDate, weekdayOfDayNumber } from '../src/domain/holiday-calendar.ts';

/** Issue 12, "Rough edges found in the walkthrough", staff portal: what a person sees at 1440×900. */

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function api<T = unknown>(request: APIRequestContext, method: 'GET' | 'POST' | 'PATCH', path: string, token?: string, data?: unknown): Promise<T> {
  const response = await request.fetch(`/api/v1${path}`, { method, data, headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

const login = (request: APIRequestContext, email: string) => api<{ token: string; organizationId: number | null }>(request, 'POST', '/login', undefined, { email, password: 'demo-password' });

/**
 * A project of a new organization with its own credits, sent to editing, with an editor: IN
 * PROGRESS. Not the demo studio's: its few credits are for the specs that need that customer.
 */
async function projectInProgress(request: APIRequestContext, name: string) {
  const stamp = unique();
  const owner = await registerOwner(request, { email: `in-progress-${stamp}@example.com`, password: 'progress-pass-1', firstName: 'Ines', lastName: 'Progress', organizationName: `In Progress ${stamp}` });
  await grantCredits(request, owner.organizationId);
  const admin = await login(request, 'admin@demo.cutdesk.test');
  const { id } = await api<{ id: number }>(request, 'POST', `/organizations/${owner.organizationId}/projects`, owner.token, { name, audience: 'Staff', goal: 'Check the rough edges', finalVideoLength: '1-2 minutes', brief: 'A short film for the walkthrough.' });
  await api(request, 'POST', `/projects/${id}/submit`, owner.token);
  const editors = await api<{ id: number; email: string }[]>(request, 'GET', '/users?role=editor&start=0&limit=200', admin.token);
  await api(request, 'POST', `/projects/${id}/assign-editor`, admin.token, { editorId: editors.find((e) => e.email === 'editor@demo.cutdesk.test')!.id });
  return { id, admin };
}

test('Admin Settings offers no Edit on a disabled user', async ({ page, request }) => {
  const stamp = unique();
  const superadmin = await login(request, 'superadmin@demo.cutdesk.test');
  const user = await api<{ id: number }>(request, 'POST', '/users', superadmin.token, { email: `off-${stamp}@example.com`, firstName: 'Off', lastName: `Duty ${stamp}`, role: 'Editor', phone: '', profilePictureUrl: null });
  await api(request, 'PATCH', `/users/${user.id}`, superadmin.token, { isEnabled: 0 });
  await staffSignIn(page, 'superadmin@demo.cutdesk.test');
  await page.goto('/admin-settings');
  const row = page.getByRole('row').filter({ hasText: `off-${stamp}@example.com` });
  await expect(row).toContainText('INACTIVE');
  await row.getByRole('button', { name: `Actions for Off Duty ${stamp}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Enable', exact: true })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Edit', exact: true })).toHaveCount(0);
});

test('the name-required message shows once under the two name fields', async ({ page }) => {
  await staffSignIn(page, 'admin@demo.cutdesk.test');
  await page.goto('/editors');
  await page.getByRole('button', { name: /Add editor/ }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add editor' });
  await dialog.getByRole('button', { name: 'Add editor' }).click();
  await expect(dialog.getByText(FIELD_MESSAGES.nameRequired)).toHaveCount(1);
  await expect(dialog.getByLabel('First name')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('Last name')).toHaveAttribute('aria-invalid', 'true');
});

test('the dashboard keeps each row on one line, its header in view, and the editor picker searchable', async ({ page, request }) => {
  const stamp = unique();
  const superadmin = await login(request, 'superadmin@demo.cutdesk.test');
  // Invited editors who never accepted: with them there are enough editors for the search field.
  for (let i = 0; i < 8; i++) await api(request, 'POST', '/users', superadmin.token, { email: `pending-${stamp}-${i}@example.com`, firstName: `Pending${i}`, lastName: `Invitee ${stamp}`, role: 'Editor', phone: '', profilePictureUrl: null });
  await projectInProgress(request, `A rather long walkthrough title ${stamp}`.slice(0, 43));

  await page.setViewportSize({ width: 1440, height: 600 });
  await staffSignIn(page, 'admin@demo.cutdesk.test');
  const rows = page.getByTestId('dashboard-row');
  await expect(rows.first()).toBeVisible();
  // The count shows once every page of the board is loaded: scroll to the end as a person would
  // (other specs add projects, so the board may be longer than one page).
  const total = page.getByText(/^\d+ projects?$/);
  await expect.poll(async () => {
    await page.mouse.wheel(0, 20_000);
    return total.isVisible();
  }, { timeout: 20_000 }).toBe(true);
  const count = await rows.count();
  await expect(page.getByText(/^\d+ projects?$/)).toHaveText(count === 1 ? '1 project' : `${count} projects`);
  // One line: every row is as high as its tallest control, never two lines of text.
  for (const box of await rows.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height))) expect(box).toBeLessThan(60);
  const table = page.getByRole('table', { name: 'Projects' });
  expect(await table.evaluate((el) => el.scrollWidth <= el.parentElement!.clientWidth + 1)).toBe(true);

  // The header stays under the top bar while the page scrolls.
  await page.mouse.wheel(0, 400);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
  const header = await page.getByRole('columnheader', { name: /Project/ }).boundingBox();
  expect(header!.y).toBeGreaterThanOrEqual(60);
  expect(header!.y).toBeLessThan(70);
  await page.mouse.wheel(0, -1000);

  // Search among the editors; invitations not accepted are marked and cannot be chosen.
  const picker = rows.filter({ hasText: 'IN PROGRESS' }).first().getByRole('combobox', { name: /^Editor of / });
  await picker.click();
  const search = page.getByRole('searchbox', { name: 'Search editors' });
  await expect(search).toBeFocused();
  await search.fill(`invitee ${stamp}`);
  const options = page.getByRole('option');
  await expect(options).toHaveCount(8);
  await expect(options.first()).toContainText('Invite not accepted');
  await expect(options.first()).toHaveAttribute('aria-disabled', 'true');
  await search.fill('eddie');
  await expect(page.getByRole('option', { name: 'Eddie Cutter', exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(search).toBeHidden();
});

test('the project page shows the player at 884×494 and link boxes wide enough, and names a link limit', async ({ page, request }) => {
  const stamp = unique();
  const { id } = await projectInProgress(request, `Links ${stamp}`);
  await staffSignIn(page, 'admin@demo.cutdesk.test');
  await page.goto(`/project/${id}`);
  const player = page.getByTestId('no-video');
  await expect(player).toBeVisible();
  const box = (await player.boundingBox())!;
  expect(Math.round(box.width)).toBe(884);
  expect(Math.round(box.height)).toBe(494);
  const feedback = page.getByLabel('Feedback', { exact: true });
  expect((await feedback.boundingBox())!.width).toBeGreaterThan(380);

  await feedback.fill(`https://example.com/${'x'.repeat(181)}`);
  await feedback.press('Enter');
  await expect(page.getByText('The feedback link must be at most 200 characters.')).toBeVisible();
  await feedback.press('Escape');
  const assets = page.getByLabel('Organization assets', { exact: true });
  await assets.fill(`https://example.com/${'x'.repeat(236)}`);
  await assets.press('Enter');
  await expect(page.getByText('An asset link must be at most 255 characters.')).toBeVisible();
  await expect(page.getByText('Not a valid URL')).toHaveCount(0);
});

test('a zip download in a browser that cannot stream it says why at once', async ({ page, request }) => {
  const stamp = unique();
  const { id } = await projectInProgress(request, `Zip ${stamp}`);
  await page.addInitScript(() => {
    delete (window as unknown as { showSaveFilePicker?: unknown }).showSaveFilePicker;
    // A browser that cannot hand a stream to the download service (no transferable streams).
    window.structuredClone = () => {
      throw new DOMException('ReadableStream could not be cloned.', 'DataCloneError');
    };
  });
  await staffSignIn(page, 'admin@demo.cutdesk.test');
  // The page reads its asset list, opens its live stream, and reads what it shows once more when
  // the stream opens (a change between the two would be missed): that read is the page's, not
  // the zip's, so it is waited for (it came after the button was ready in 1 run of 8).
  const assetsPath = `/api/v1/projects/${id}/assets`;
  const pageReads: string[] = [];
  page.on('request', (r) => new URL(r.url()).pathname === assetsPath && pageReads.push('assets'));
  page.on('response', (r) => new URL(r.url()).pathname === `/api/v1/projects/${id}/events` && pageReads.push('stream open'));
  await page.goto(`/project/${id}`);
  await expect(page.getByRole('button', { name: 'Download raw zip' })).toBeEnabled();
  await expect.poll(() => pageReads.slice(pageReads.indexOf('stream open') + 1).includes('assets') && pageReads.includes('stream open')).toBe(true);
  // "At once" means before any work: no asset list read for the zip, no download service
  // registered, no timer waited out (a wall-clock bound would only measure the machine's load).
  const work: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path === assetsPath || path.startsWith('/zip-download/')) work.push(path);
  });
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1_000);
  await page.getByRole('button', { name: 'Download raw zip' }).click();
  await expect(page.getByTestId('zip-download-message')).toContainText('This browser cannot save large downloads');
  expect(work).toEqual([]);
});

test('Restore returns a deleted paused project to PAUSED, and says so before', async ({ page, request }) => {
  const stamp = unique();
  const name = `Paused then deleted ${stamp}`;
  const { id, admin } = await projectInProgress(request, name);
  await api(request, 'POST', `/projects/${id}/pause`, admin.token);
  await api(request, 'POST', `/projects/${id}/hide`, admin.token);

  await staffSignIn(page, 'admin@demo.cutdesk.test');
  await page.getByRole('tab', { name: 'Deleted Projects' }).click();
  const row = page.getByTestId('dashboard-row').filter({ hasText: name });
  await expect.poll(async () => {
    await page.mouse.wheel(0, 20_000);
    return row.count();
  }, { timeout: 20_000 }).toBe(1);
  await row.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Restore' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('status-confirm-text')).toContainText('Active Projects as PAUSED');
  await dialog.getByRole('button', { name: 'Yes' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('tab', { name: 'Active Projects' }).click();
  // The board loads page by page as it scrolls; other specs may have made it long.
  const restored = page.getByTestId('dashboard-row').filter({ hasText: name });
  await expect.poll(async () => {
    await page.mouse.wheel(0, 20_000);
    return restored.count();
  }, { timeout: 20_000 }).toBe(1);
  await expect(restored).toContainText('PAUSED');
});

test('sorting by status follows the workflow, not the internal names', async ({ page }) => {
  await staffSignIn(page, 'admin@demo.cutdesk.test');
  await expect(page.getByTestId('dashboard-row').first()).toBeVisible();
  await page.getByRole('button', { name: /^Status/ }).click();
  await expect(page.getByRole('columnheader', { name: /Status/ })).toHaveAttribute('aria-sort', 'ascending');
  const order = ['NOT PUBLISHED', 'NO EDITOR', 'IN PROGRESS', 'PAUSED', 'PENDING REVIEW', 'FINISHED', 'DELETED'];
  await expect.poll(async () => {
    const ranks = (await page.getByTestId('dashboard-row').locator('.status-pill').allTextContents()).map((t) => order.indexOf(t.trim()));
    return ranks.length > 1 && ranks.every((r, i) => r >= 0 && (i === 0 || ranks[i - 1]! <= r));
  }).toBe(true);
});

test("each trial user's registration link is their own", async ({ page, request }) => {
  const stamp = unique();
  const email = `trial-${stamp}@example.com`;
  await registerOwner(request, { email, password: 'trial-password', firstName: 'Tess', lastName: 'Trial', phone: '5551234', organizationName: `Trial Studio ${stamp}` });

  await staffSignIn(page, 'admin@demo.cutdesk.test');
  await page.goto('/onboarding');
  await page.getByRole('tab', { name: 'Trial Users' }).click();
  const row = page.getByRole('row').filter({ hasText: email });
  const link = row.getByRole('link', { name: /login\/user/ });
  const href = (await link.getAttribute('href'))!;
  expect(new URL(href).searchParams.get('email')).toBe(email);
  expect(href).not.toMatch(/code=/);
  const others = await page.getByRole('table', { name: 'Trial users' }).getByRole('link', { name: /login\/user/ }).evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
  expect(new Set(others).size).toBe(others.length);
});

test('a superadmin adds a holiday on Admin settings and sees it listed (issue 36 item 11)', async ({ page, request }) => {
  const superadmin = await login(request, 'superadmin@demo.cutdesk.test');
  // A weekday of next year that is no holiday, away from every timer running now; drawn so that runs do not collide.
  const year = Number(businessToday().slice(0, 4)) + 1;
  let day = dayNumberOfDate(`${year}-03-01`)! + Math.floor(Math.random() * 200);
  while ([0, 6].includes(weekdayOfDayNumber(day)) || US_FEDERAL_CALENDAR.holidayOnDay(day) !== null) day += 1;
  const date = dateOfDayNumber(day);
  const name = `Studio day ${unique()}`;
  await staffSignIn(page, 'superadmin@demo.cutdesk.test');
  await page.goto('/admin-settings');
  await page.getByRole('tab', { name: 'Holidays' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Holidays' });
  await expect(panel.getByRole('row').filter({ hasText: 'Thanksgiving Day' }).first()).toContainText('Federal');
  try {
    await panel.getByLabel('Date').fill(date);
    await panel.getByLabel('Name').fill(name);
    await panel.getByRole('button', { name: 'Add holiday' }).click();
    const row = panel.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('Added');
    await expect(row.getByRole('button', { name: `Remove ${name} (${date})` })).toBeVisible();
    await expect(panel.getByLabel('Name')).toHaveValue('');
    if (process.env.HOLIDAYS_SCREENSHOT) await page.screenshot({ path: process.env.HOLIDAYS_SCREENSHOT, fullPage: true });
  } finally {
    await request.fetch(`/api/v1/business-calendar/holidays/${date}`, { method: 'DELETE', headers: { authorization: `Bearer ${superadmin.token}` } });
  }
});

