import { expect, test } from '@playwright/test';

/**
 * Issue 9: the built app runs under its Content-Security-Policy (script-src 'self'): every
 * script of the page is a file of this origin, no inline handler, and signing in and opening
 * the projects board raise no CSP violation in the browser.
 */
test('the built app runs under its CSP: every script a file of this origin, no violation while signing in', async ({ page, request }) => {
  const response = await request.get('/login/user');
  expect(response.headers()['content-security-policy']).toContain("script-src 'self'");
  expect(response.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  const html = await response.text();
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  expect(scripts.length).toBeGreaterThan(0);
  for (const [, attributes, body] of scripts) {
    expect(attributes).toMatch(/\ssrc="\/[^"]+"/);
    expect(body!.trim()).toBe('');
  }
  expect(html).not.toMatch(/\son[a-z]+=/i);

  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto('/login/user');
  await page.getByLabel('E-mail').fill('owner@demo.cutdesk.test');
  await page.getByLabel('Password').fill('demo-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/user\/projects$/);
  await expect(page.getByTestId('credits-meter')).toBeVisible();
  expect(violations).toEqual([]);
});
