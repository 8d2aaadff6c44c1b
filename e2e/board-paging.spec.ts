import { expect, test } from '@playwright/test';
import { registerOwner } from './fresh-organization.ts';
import { customerSignIn } from './sign-in.ts';

/**
 * Issue 9: the customer board pages each section (24 cards at a time) instead of loading every
 * project at once. A fresh organization, so the demo data other tests rely on stays as it is.
 */
test('a board section with more projects than a page shows the total and loads the rest on "Show more"', async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const email = `pager-${stamp}@example.com`;
  const password = 'pager-password';
  const { headers, organizationId } = await registerOwner(request, {
    email,
    password,
    firstName: 'Page',
    lastName: 'Turner',
    phone: '5551234',
    organizationName: `Pager ${stamp}`,
  });
  const brief = { audience: 'Everyone', goal: 'Sign-ups', finalVideoLength: '0-60 seconds', brief: 'Fast cuts.' };
  for (let index = 1; index <= 26; index += 1) {
    const created = await request.post(`/api/v1/organizations/${organizationId}/projects`, { headers, data: { name: `Paged project ${index}`, ...brief } });
    expect(created.status()).toBe(201);
  }

  await customerSignIn(page, email, password);

  const assembly = page.getByRole('region', { name: 'Assembly' });
  await expect(assembly.locator('.count-pill')).toHaveText('26');
  // Newest first: the two oldest wait for "Show more".
  await expect(assembly.getByRole('link', { name: 'Paged project 26' })).toBeVisible();
  await expect(assembly.getByRole('link', { name: 'Paged project 3', exact: true })).toBeVisible();
  await expect(assembly.getByRole('link', { name: 'Paged project 1', exact: true })).toHaveCount(0);
  await assembly.getByRole('button', { name: 'Show more (2)' }).click();
  await expect(assembly.getByRole('link', { name: 'Paged project 1', exact: true })).toBeVisible();
  await expect(assembly.getByRole('button', { name: /Show more/ })).toHaveCount(0);
  // The other sections are empty and say so.
  await expect(page.getByRole('region', { name: 'Editing' }).locator('.count-pill')).toHaveText('0');
});
