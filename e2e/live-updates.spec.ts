import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { grantCredits, registerOwner } from './fresh-organization.ts';
import { customerSignIn, staffSignIn } from './sign-in.ts';

/**
 * Live updates (Server-Sent Events fed by LISTEN/NOTIFY): a change by one person shows on every
 * open page of the project without a reload, and a page that lost its connection catches up
 * when it is back.
 */

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function apiLogin(request: APIRequestContext, email: string) {
  const response = await request.post('/api/v1/login', { data: { email, password: 'demo-password' } });
  expect(response.ok()).toBe(true);
  const { token, organizationId } = (await response.json()) as { token: string; organizationId: number };
  return { headers: { authorization: `Bearer ${token}` }, organizationId };
}

/** Counts full page loads, so a test can say nothing was reloaded. */
function loadsOf(page: Page): () => number {
  let loads = 0;
  page.on('load', () => (loads += 1));
  return () => loads;
}

test('a change by one person shows on the other’s open project page, and a page back online catches up', async ({ browser, request }) => {
  const owner = await apiLogin(request, 'owner@demo.cutdesk.test');
  const admin = await apiLogin(request, 'admin@demo.cutdesk.test');
  const created = await request.post(`/api/v1/organizations/${owner.organizationId}/projects`, {
    headers: owner.headers,
    data: { name: `Live ${unique()}`, audience: 'Investors', goal: 'Raise the round', finalVideoLength: '1-2 minutes', brief: 'Live updates.' },
  });
  expect(created.status()).toBe(201);
  const projectId = ((await created.json()) as { id: number }).id;
  const rename = async (headers: { authorization: string }, name: string) => {
    const response = await request.patch(`/api/v1/projects/${projectId}`, { headers, data: { name } });
    expect(response.status(), await response.text()).toBe(200);
  };

  const customerContext = await browser.newContext();
  const staffContext = await browser.newContext();
  try {
    const customer = await customerContext.newPage();
    const staff = await staffContext.newPage();
    await customerSignIn(customer, 'owner@demo.cutdesk.test');
    await staffSignIn(staff, 'admin@demo.cutdesk.test');
    // The stream answered (its headers): from here on the server sends it every change.
    const streamOpened = (page: Page) =>
      page.waitForResponse((response) => new URL(response.url()).pathname === `/api/v1/projects/${projectId}/events` && response.status() === 200);
    const customerStream = streamOpened(customer);
    const staffStream = streamOpened(staff);
    await customer.goto(`/user/project/${projectId}`);
    await staff.goto(`/project/${projectId}`);
    await Promise.all([customerStream, staffStream]);
    const customerLoads = loadsOf(customer);
    const staffLoads = loadsOf(staff);

    // The admin renames it: the customer's page shows the new name, as does the admin's own page.
    const byAdmin = `Renamed by staff ${unique()}`;
    await rename(admin.headers, byAdmin);
    await expect(customer.getByText(byAdmin).first()).toBeVisible();
    await expect(staff.getByText(byAdmin).first()).toBeVisible();

    // The owner renames it: the staff page follows.
    const byOwner = `Renamed by the owner ${unique()}`;
    await rename(owner.headers, byOwner);
    await expect(staff.getByText(byOwner).first()).toBeVisible();
    await expect(customer.getByText(byOwner).first()).toBeVisible();

    // The customer's network drops; meanwhile the admin changes the project again. Back online,
    // the page gets a new ticket, reopens the stream and reads the project again.
    await customerContext.setOffline(true);
    const whileOffline = `Renamed while offline ${unique()}`;
    await rename(admin.headers, whileOffline);
    await expect(staff.getByText(whileOffline).first()).toBeVisible();
    await customer.waitForTimeout(500);
    await expect(customer.getByText(whileOffline)).toHaveCount(0);
    const reopened = streamOpened(customer);
    await customerContext.setOffline(false);
    await reopened;
    await expect(customer.getByText(whileOffline).first()).toBeVisible();

    // And it is live again after the reconnect.
    const afterwards = `Renamed after the drop ${unique()}`;
    await rename(admin.headers, afterwards);
    await expect(customer.getByText(afterwards).first()).toBeVisible();

    expect(customerLoads()).toBe(0);
    expect(staffLoads()).toBe(0);
  } finally {
    await customerContext.close();
    await staffContext.close();
  }
});

test('the staff dashboard’s rows update in place when a project changes, or its editor’s name', async ({ browser, request }) => {
  // A fresh organization with credits (Demo Studio's are counted by other specs) sends a project to editing.
  const admin = await apiLogin(request, 'admin@demo.cutdesk.test');
  const owner = await registerOwner(request, {
    email: `live-${unique()}@example.com`,
    password: 'a-long-password-1',
    firstName: 'Live',
    lastName: 'Owner',
    organizationName: `Live org ${unique()}`,
  });
  await grantCredits(request, owner.organizationId, 5);
  // First by name, so the row is on the first page whatever other specs add.
  const name = `000 Live dashboard ${unique()}`;
  const created = await request.post(`/api/v1/organizations/${owner.organizationId}/projects`, {
    headers: owner.headers,
    data: { name, audience: 'Investors', goal: 'Raise the round', finalVideoLength: '1-2 minutes', brief: 'Live dashboard.' },
  });
  expect(created.status()).toBe(201);
  const projectId = ((await created.json()) as { id: number }).id;
  expect((await request.post(`/api/v1/projects/${projectId}/submit`, { headers: owner.headers })).ok()).toBe(true);
  // An editor of its own, renamed below (the demo editor's name is read by other specs).
  const editorEmail = `live-editor-${unique()}@example.com`;
  const invited = await request.post('/api/v1/users', {
    headers: admin.headers,
    data: { email: editorEmail, firstName: 'Live', lastName: 'Editor', role: 'EDITOR' },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const editorId = ((await invited.json()) as { id: number }).id;

  const staffContext = await browser.newContext();
  try {
    const staff = await staffContext.newPage();
    const streamOpened = staff.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/dashboard/events' && response.status() === 200);
    await staffSignIn(staff, 'admin@demo.cutdesk.test');
    await streamOpened;
    await staff.getByRole('button', { name: /^Project/ }).click();
    const header = staff.getByRole('columnheader', { name: /Project/ });
    if ((await header.getAttribute('aria-sort')) !== 'ascending') await staff.getByRole('button', { name: /^Project/ }).click();
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    const row = staff.getByTestId('dashboard-row').filter({ hasText: name });
    await expect(row).toContainText('NO EDITOR');
    const loads = loadsOf(staff);

    // Another admin assigns an editor elsewhere: the row says so by itself.
    const assigned = await request.post(`/api/v1/projects/${projectId}/assign-editor`, { headers: admin.headers, data: { editorId } });
    expect(assigned.status(), await assigned.text()).toBe(200);
    await expect(row).toContainText('IN PROGRESS');
    const paused = await request.post(`/api/v1/projects/${projectId}/pause`, { headers: admin.headers });
    expect(paused.status(), await paused.text()).toBe(200);
    await expect(row).toContainText('PAUSED');
    // The editor is renamed (no project changes): the row shows the new name by itself (issue 36).
    const renamed = `Renamed ${unique()}`;
    const edited = await request.patch(`/api/v1/users/${editorId}`, {
      headers: admin.headers,
      data: { email: editorEmail, firstName: renamed, lastName: 'Editor' },
    });
    expect(edited.status(), await edited.text()).toBe(200);
    await expect(row).toContainText(`${renamed} Editor`);
    expect(loads()).toBe(0);
  } finally {
    await staffContext.close();
  }
});
