import { expect, type Page } from '@playwright/test';

/** Staff sign in at /login in two steps (e-mail, then password) and land on the dashboard. */
export async function staffSignIn(page: Page, email: string, password = 'demo-password') {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Customers sign in at /login/user and land on their projects board. */
export async function customerSignIn(page: Page, email: string, password = 'demo-password') {
  await page.goto('/login/user');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/user\/projects$/);
}

/** A session signed in through the API, kept where the app keeps it, before the page's scripts run. */
export async function storeSession(page: Page, token: string, organizationId: number) {
  await page.addInitScript(
    ([t, o]) => {
      localStorage.setItem('cutdesk.token', JSON.stringify(t));
      localStorage.setItem('cutdesk.orgId', JSON.stringify(o));
    },
    [token, organizationId] as const,
  );
}
