import { expect, test, type Page, type Request, type Response } from '@playwright/test';
import { registerOwner } from './fresh-organization.ts';
import { customerSignIn } from './sign-in.ts';

/**
 * The customer pages read and change the server through one query layer: a change refreshes
 * what it touched (the top bar after an upload, the board after a delete or a duplicate) in the
 * page as it is, without a reload and without asking twice for the same thing.
 */

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const brief = { audience: 'Everyone', goal: 'Sign-ups', finalVideoLength: '0-60 seconds', brief: 'Fast cuts.' };

/** A mark in the page's memory: it survives only while the page is not reloaded. */
const markPage = (page: Page) => page.evaluate(() => Object.assign(window, { __notReloaded: true }));
const stillSamePage = (page: Page) => page.evaluate(() => (window as unknown as { __notReloaded?: boolean }).__notReloaded === true);

test('a finished upload refreshes the top bar figures and the file list without a reload', async ({ page, request }) => {
  const login = await request.post('/api/v1/login', { data: { email: 'owner@demo.cutdesk.test', password: 'demo-password' } });
  expect(login.ok()).toBe(true);
  const { token, organizationId } = (await login.json()) as { token: string; organizationId: number };
  const created = await request.post(`/api/v1/organizations/${organizationId}/projects`, {
    headers: { authorization: `Bearer ${token}` },
    data: { name: `Query layer ${unique()}`, ...brief },
  });
  expect(created.status()).toBe(201);
  const projectId = ((await created.json()) as { id: number }).id;

  // Every answer of GET organizations/{id}: only the top bar reads it on a project page.
  const organizationAnswers: Response[] = [];
  page.on('response', (response) => {
    if (response.request().method() === 'GET' && new URL(response.url()).pathname === `/api/v1/organizations/${organizationId}`)
      organizationAnswers.push(response);
  });
  const usedSpaceOf = async (response: Response) => ((await response.json()) as { usedSpace: number }).usedSpace;

  await page.addInitScript(
    ([t, o]) => {
      localStorage.setItem('cutdesk.token', JSON.stringify(t));
      localStorage.setItem('cutdesk.orgId', JSON.stringify(o));
    },
    [token, organizationId] as const,
  );
  await page.goto(`/user/project/${projectId}`);
  const section = page.getByTestId('asset-section-ASSET');
  await expect(section).toContainText('No files yet');
  await expect(page.getByTestId('storage-meter')).toContainText('TB');
  await expect.poll(() => organizationAnswers.length).toBeGreaterThan(0);
  const before = await usedSpaceOf(organizationAnswers[organizationAnswers.length - 1]!);
  const readsBefore = organizationAnswers.length;
  await markPage(page);

  // A 1×1 PNG.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  await page.getByTestId('upload-input-ASSET').setInputFiles({ name: 'query-layer.png', mimeType: 'image/png', buffer: png });
  await expect(section.getByTestId('asset-tile')).toHaveCount(1);
  // The top bar asked again by itself, and its answer counts the new file.
  await expect.poll(() => organizationAnswers.length).toBeGreaterThan(readsBefore);
  const latestUsedSpace = () => usedSpaceOf(organizationAnswers[organizationAnswers.length - 1]!);
  // Other specs may upload to the demo organization meanwhile: the figure grows by at least this file.
  await expect.poll(latestUsedSpace).toBeGreaterThanOrEqual(before + png.length);
  const afterUpload = await latestUsedSpace();
  expect(await stillSamePage(page)).toBe(true);

  // Deleting the file gives the space back, in the top bar too (and leaves the demo figures as they were).
  const readsAfterUpload = organizationAnswers.length;
  await section.getByRole('button', { name: 'Delete query-layer.png' }).click();
  await page.getByRole('dialog', { name: 'Delete this file?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(section.getByTestId('asset-tile')).toHaveCount(0);
  await expect.poll(() => organizationAnswers.length).toBeGreaterThan(readsAfterUpload);
  await expect.poll(latestUsedSpace).toBeLessThan(afterUpload);
  expect(await stillSamePage(page)).toBe(true);
});

test('a duplicate and a delete on the board refresh it in place, keep the cards shown, and ask once per section', async ({ page, request }) => {
  const stamp = unique();
  const email = `queries-${stamp}@example.com`;
  const password = 'queries-password';
  const { headers, organizationId } = await registerOwner(request, {
    email,
    password,
    firstName: 'Query',
    lastName: 'Layer',
    phone: '5551234',
    organizationName: `Queries ${stamp}`,
  });
  for (let index = 1; index <= 26; index += 1) {
    const created = await request.post(`/api/v1/organizations/${organizationId}/projects`, { headers, data: { name: `Board project ${index}`, ...brief } });
    expect(created.status()).toBe(201);
  }

  // Each read of a board section, by section.
  const boardReads: string[] = [];
  page.on('request', (sent: Request) => {
    const url = new URL(sent.url());
    if (sent.method() === 'GET' && url.pathname === `/api/v1/organizations/${organizationId}/projects` && url.searchParams.has('section'))
      boardReads.push(url.searchParams.get('section')!);
  });
  const readsOf = (section: string) => boardReads.filter((s) => s === section).length;

  await customerSignIn(page, email, password);
  const assembly = page.getByRole('region', { name: 'Assembly' });
  const cards = assembly.locator('.project-card');
  await expect(assembly.locator('.count-pill')).toHaveText('26');
  await expect(cards).toHaveCount(24);
  // Opening the board asked once for each section.
  expect([readsOf('needsReview'), readsOf('editing'), readsOf('assembly')]).toEqual([1, 1, 1]);

  await assembly.getByRole('button', { name: 'Show more (2)' }).click();
  await expect(cards).toHaveCount(26);
  await markPage(page);

  // A duplicate: the copy is counted and every card shown stays shown (no "Show more" again).
  boardReads.length = 0;
  // Cards of the last row: an open menu there covers no other card.
  await assembly.getByRole('button', { name: 'Actions for Board project 1', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Duplicate' }).click();
  await expect(assembly.locator('.count-pill')).toHaveText('27');
  await expect(cards).toHaveCount(27);
  await expect(assembly.getByRole('button', { name: /Show more/ })).toHaveCount(0);
  await expect(assembly.getByRole('link', { name: /^Board project 1 \(copy\)/ })).toBeVisible();

  // A delete: the card goes, the count follows, still in the same page.
  await assembly.getByRole('button', { name: 'Actions for Board project 2', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete this project?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(assembly.locator('.count-pill')).toHaveText('26');
  await expect(cards).toHaveCount(26);
  await expect(assembly.getByRole('link', { name: 'Board project 2', exact: true })).toHaveCount(0);
  expect(await stillSamePage(page)).toBe(true);

  // Settled: each change read each section again once (the assembly's two pages, the empty
  // sections' one), never the same thing twice.
  await page.waitForTimeout(1_000);
  expect([readsOf('needsReview'), readsOf('editing'), readsOf('assembly')]).toEqual([2, 2, 4]);
});
