import { expect, test, type APIRequestContext } from '@playwright/test';
import { grantCredits } from './fresh-organization.ts';

/** Signs in through the API; returns the bearer header and the organization id. */
async function apiLogin(request: APIRequestContext, email: string) {
  const response = await request.post('/api/v1/login', { data: { email, password: 'demo-password' } });
  expect(response.ok()).toBe(true);
  const { token, organizationId } = (await response.json()) as { token: string; organizationId: number | null };
  return { headers: { authorization: `Bearer ${token}` }, organizationId };
}

const minutes = (text: string) => {
  const [h, m] = text.replace('-', '').split(':').map(Number);
  return (text.startsWith('-') ? -1 : 1) * (h! * 60 + m!);
};

test('the dashboard keeps its timer order across pages loaded by scrolling', async ({ page, request }) => {
  // Another customer (not Demo Studio, which other tests count credits of) sends 32 projects to editing.
  const nina = await apiLogin(request, 'nina@northwind.demo.cutdesk.test');
  const organizationId = nina.organizationId!;
  await grantCredits(request, organizationId, 100);
  for (let i = 0; i < 32; i++) {
    const created = await request.post(`/api/v1/organizations/${organizationId}/projects`, {
      headers: nina.headers,
      data: { name: `Northwind spot ${i}`, audience: 'Fleet buyers', goal: 'Leads', finalVideoLength: '0-60 seconds', brief: 'A short spot.' },
    });
    const { id } = (await created.json()) as { id: number };
    expect((await request.post(`/api/v1/projects/${id}/submit`, { headers: nina.headers })).ok()).toBe(true);
  }

  await page.goto('/login');
  await page.getByLabel('E-mail').fill('admin@demo.cutdesk.test');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password').fill('demo-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('dashboard-row')).toHaveCount(30);

  // Scrolling to the end loads the next page from the server, in the same order.
  await page.getByTestId('dashboard-row').last().scrollIntoViewIfNeeded();
  await page.locator('.load-more').scrollIntoViewIfNeeded();
  await expect.poll(() => page.getByTestId('dashboard-row').count(), { timeout: 15_000 }).toBeGreaterThan(30);
  const timers = (await page.getByTestId('sla-timer').allTextContents()).map(minutes);
  expect(timers).toEqual([...timers].sort((a, b) => a - b));
});
