import { expect, test } from '@playwright/test';
import { staffSignIn } from './sign-in.ts';
import { api, login, unique } from './api-helpers.ts';
import { businessToday } from '../src/domain/business-calendar.ts';
import { US_FEDERAL_CALENDAR, dateOfDayNumber, dayNumberOfDate, weekdayOfDayNumber } from '../src/domain/holiday-calendar.ts';

/** Staff Admin settings (/admin-settings): the users tab's menu on a disabled user, and the Holidays tab. */

test('Admin Settings offers no Edit on a disabled user', async ({ page, request }) => {
  const stamp = unique();
  const superadmin = await login(request, 'superadmin@demo.cutdesk.test');
  const user = await api<{ id: number }>(request, 'POST', '/users', superadmin.token, {
    email: `off-${stamp}@example.com`,
    firstName: 'Off',
    lastName: `Duty ${stamp}`,
    role: 'Editor',
    phone: '',
    profilePictureUrl: null,
  });
  await api(request, 'PATCH', `/users/${user.id}`, superadmin.token, { isEnabled: 0 });
  await staffSignIn(page, 'superadmin@demo.cutdesk.test');
  await page.goto('/admin-settings');
  const row = page.getByRole('row').filter({ hasText: `off-${stamp}@example.com` });
  await expect(row).toContainText('INACTIVE');
  await row.getByRole('button', { name: `Actions for Off Duty ${stamp}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Enable', exact: true })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Edit', exact: true })).toHaveCount(0);
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
