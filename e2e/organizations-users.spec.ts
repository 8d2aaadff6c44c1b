import { crc32, deflateSync } from 'node:zlib';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { MESSAGES } from '../src/domain/messages.ts';
import { E2E_DATA_DIR } from '../playwright.config.ts';
import { changePasswordLink } from '../tests/support/outbox.ts';
import { unique } from './api-helpers.ts';
import { registerOwner } from './fresh-organization.ts';
import { customerSignIn as signInAs, staffSignIn } from './sign-in.ts';
import { FIELD_MESSAGES } from '../src/domain/validation.ts';

/** The server's data directory (a private run may point elsewhere). */
const DATA_DIR = process.env.E2E_DATA_DIR ?? E2E_DATA_DIR;

/** A real PNG of `width`×`height` red pixels. */
function redPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const frame = Buffer.alloc(8);
    frame.writeUInt32BE(data.length, 0);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body), 0);
    return Buffer.concat([frame.subarray(0, 4), body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from([220, 40, 40]))]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function signIn(page: Page, email: string, landing: RegExp) {
  await page.goto('/login/user');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('demo-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(landing);
}

async function apiToken(request: APIRequestContext, email: string, password = 'demo-password'): Promise<string> {
  const response = await request.post('/api/v1/login', { data: { email, password } });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { token: string }).token;
}

async function organizationId(request: APIRequestContext, name: string): Promise<number> {
  const token = await apiToken(request, 'admin@demo.cutdesk.test');
  const response = await request.get('/api/v1/organizations?sort=organization&limit=100', { headers: { authorization: `Bearer ${token}` } });
  const rows = (await response.json()) as { id: number; name: string }[];
  return rows.find((r) => r.name === name)!.id;
}

test('an owner adds a user, who sets a password from the e-mail and sees only the first settings tab', async ({ page }) => {
  const id = unique();
  const email = `member-${id}@example.com`;
  await signIn(page, 'owner@demo.cutdesk.test', /\/user\/projects$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin Settings' }).click();
  await expect(page.getByRole('tab')).toHaveText(['Users & credits', 'Subscription']);
  await expect(page.getByTestId('credits-card')).toContainText('ACTIVE');

  await page.getByRole('button', { name: 'Add user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  await dialog.getByRole('button', { name: 'Add user' }).click();
  await expect(dialog.getByText('First / Last name are required').first()).toBeVisible();
  await expect(dialog.getByText('E-mail is required')).toBeVisible();

  await dialog.getByLabel('First name').fill('Mira');
  await dialog.getByLabel('Last name').fill(`Member ${id}`);
  await dialog.getByLabel('E-mail', { exact: true }).fill('user@demo.cutdesk.test');
  await dialog.getByLabel('Confirm e-mail').fill('user@demo.cutdesk.test');
  await dialog.getByLabel('Phone').fill('555-12');
  await dialog.getByLabel('Phone').blur();
  await expect(dialog.getByText('Phone must contain digits only.')).toBeVisible();
  await dialog.getByLabel('Phone').fill('5551212');
  await dialog.getByRole('button', { name: 'Add user' }).click();
  // C§8: a used e-mail marks the field and keeps submit disabled until a field is edited.
  await expect(dialog.getByText(MESSAGES.userEmailUsed)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Add user' })).toBeDisabled();
  await dialog.getByLabel('E-mail', { exact: true }).fill(email);
  await expect(dialog.getByRole('button', { name: 'Add user' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Add user' }).click();
  await expect(dialog.getByText('E-mails do not match')).toBeVisible();
  await dialog.getByLabel('Confirm e-mail').fill(email);
  await dialog.getByRole('button', { name: 'Add user' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Invite pending');

  await page.getByRole('button', { name: 'Log out' }).click();
  const link = await changePasswordLink(DATA_DIR, email);
  await page.goto(link.pathname + link.search);
  await page.getByLabel('New password', { exact: true }).fill('member-pass-1');
  await page.getByLabel('Confirm new password').fill('member-pass-1');
  await page.getByLabel('Confirm new password').press('Enter');
  await expect(page).toHaveURL(/\/user\/projects$/);
  await expect(page.locator('.topbar')).toContainText(`Mira Member ${id}`);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin Settings' }).click();
  await expect(page.getByRole('tab')).toHaveText(['Users & credits']);
  await expect(page.getByRole('row').filter({ hasText: email })).toContainText('Active');
  await expect(page.getByRole('button', { name: 'Add user' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Actions for/ })).toHaveCount(0);
});

test('an admin completes an onboarding', async ({ page, request }) => {
  const name = `Onboard ${unique()}`;
  await registerOwner(request, {
    email: `onboard-${unique()}@example.com`,
    password: 'onboard-1',
    firstName: 'Otto',
    lastName: 'Board',
    organizationName: name,
  });

  await signIn(page, 'admin@demo.cutdesk.test', /\/dashboard$/);
  await page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Onboarding' }).click();
  await expect(page.getByRole('tab', { name: 'Customers Onboarding', exact: true })).toHaveAttribute('aria-selected', 'true');
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('inactive');
  await expect(row).toContainText('Not ordered');
  await row.getByRole('button', { name: `Complete ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Complete the onboarding of ${name}?` });
  await dialog.getByRole('button', { name: 'Complete' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);

  await page.getByRole('tab', { name: 'Completed Customers Onboarding' }).click();
  const completed = page.getByRole('row').filter({ hasText: name });
  await expect(completed).toBeVisible();
  await expect(completed).toHaveClass(/dt-row-muted/);
  await expect(completed.getByRole('button', { name: /Complete/ })).toHaveCount(0);
});

test('an admin edits the credits, logs in as the customer, sees the new total and returns with Admin logout', async ({ page }) => {
  const total = 20 + Math.floor(Math.random() * 80);
  await signIn(page, 'admin@demo.cutdesk.test', /\/dashboard$/);
  await page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Customers' }).click();
  await page.getByRole('link', { name: 'Demo Studio', exact: true }).click();
  await expect(page).toHaveURL(/\/organization\/\d+$/);
  await expect(page.getByRole('heading', { name: 'Demo Studio' })).toBeVisible();

  const credits = page.getByRole('region', { name: 'Credits' });
  await credits.getByLabel('Total credits').fill('-3');
  await credits.getByRole('button', { name: 'Save credits' }).click();
  await expect(credits.getByText('Enter a whole number from 0 to 100000.')).toBeVisible();
  await credits.getByLabel('Total credits').fill(String(total));
  await credits.getByRole('button', { name: 'Save credits' }).click();
  await expect(credits.getByText('Updated!')).toBeVisible();
  await expect(credits.locator('.credits-number')).toHaveText(String(total));

  await page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Customers' }).click();
  await page.getByRole('button', { name: 'Log In As Demo Studio' }).click();
  await expect(page).toHaveURL(/\/user\/projects$/);
  await expect(page.getByRole('status').filter({ hasText: 'You are signed in as Demo Studio' })).toBeVisible();
  await expect(page.getByTestId('credits-meter')).toHaveText(new RegExp(`^\\d+ / ${total}$`));
  await expect(page.locator('.topbar')).toContainText('Olivia Owner');

  await page.getByRole('button', { name: 'Admin logout' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.locator('.staff-top')).toContainText('Alex Admin');
  await page.reload();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('navigation', { name: 'Staff' }).getByRole('link')).toHaveText(['Dashboard', 'Customers', 'Editors', 'Onboarding', 'Settings']);
  // The Log In As trail is a superadmin's only (issue 36).
  await page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('tab', { name: 'Users' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Log In As trail' })).toHaveCount(0);
});

test('a superadmin reads the Log In As trail: who, as whom, when, for how long (issue 36)', async ({ page }) => {
  await signIn(page, 'superadmin@demo.cutdesk.test', /\/dashboard$/);
  await page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Customers' }).click();
  await page.getByRole('button', { name: 'Log In As Demo Studio' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'You are signed in as Demo Studio' })).toBeVisible();
  await page.getByRole('button', { name: 'Admin logout' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'Log In As trail' }).click();
  const trail = page.getByRole('table', { name: 'Log In As trail' });
  await expect(trail.getByRole('columnheader')).toHaveText(['Staff member', 'Organization', 'Signed in as', 'Started', 'Duration', 'Client address']);
  // Newest first: the session just ended by Admin logout, with its length. Other tests running
  // beside this one log in as customers too (as admins), so the newest of this superadmin's rows.
  const newest = trail.getByRole('row').filter({ hasText: 'Sam Super' }).first();
  await expect(newest.getByRole('cell')).toHaveText(['Sam Super', 'Demo Studio', 'Olivia Owner', /\d{4}, \d{1,2}:\d{2}\s[AP]M$/, /^\d+ (s|min)$/, /\S/]);
  await page.screenshot({ path: '/tmp/issue36/log-in-as-trail.png' });
});

test('an admin adds an editor with a picture, and a used e-mail is refused', async ({ page }) => {
  const id = unique();
  await signIn(page, 'admin@demo.cutdesk.test', /\/dashboard$/);
  await page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Editors' }).click();
  await page.getByRole('button', { name: 'Add editor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add editor' });
  // A 640×480 PNG: the browser resizes it to 200 px wide and stores a JPEG.
  await dialog.getByLabel('Profile picture').setInputFiles({ name: 'face.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
  await expect(dialog.getByText('Choose a GIF, JPEG, PNG or BMP picture.')).toBeVisible();
  await dialog.getByLabel('Profile picture').setInputFiles({ name: 'face.png', mimeType: 'image/png', buffer: redPng(640, 480) });
  await expect(dialog.locator('img.avatar')).toHaveAttribute('src', /^data:image\/jpeg;base64,/);
  await dialog.getByLabel('First name').fill('Nova');
  await dialog.getByLabel('Last name').fill(`Cut ${id}`);
  await dialog.getByLabel('E-mail').fill('editor@demo.cutdesk.test');
  await dialog.getByLabel('WhatsApp number').fill('+1 555 0100');
  await dialog.getByRole('button', { name: 'Add editor' }).click();
  await expect(dialog.getByText(MESSAGES.userEmailUsed)).toBeVisible();
  await dialog.getByLabel('E-mail').press('End');
  await expect(dialog.getByText(MESSAGES.userEmailUsed)).toHaveCount(0);
  await dialog.getByLabel('E-mail').fill(`nova-${id}@example.com`);
  await dialog.getByRole('button', { name: 'Add editor' }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByRole('row').filter({ hasText: `nova-${id}@example.com` });
  await expect(row.locator('img.avatar')).toHaveAttribute('src', /^data:image\/jpeg/);
  await expect.poll(() => row.locator('img.avatar').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(200);
  await expect(row).toContainText('+1 555 0100');
  await row.getByRole('button', { name: `Actions for Nova Cut ${id}` }).click();
  await page.getByRole('menuitem', { name: 'Edit info' }).click();
  const edit = page.getByRole('dialog', { name: 'Finish editor profile' });
  await expect(edit.getByRole('button', { name: 'Finish profile' })).toBeVisible();
  await edit.getByRole('button', { name: 'Cancel' }).click();

  await row.getByLabel(`Drive link of Nova Cut ${id}`).fill('not a link');
  await row.getByLabel(`Drive link of Nova Cut ${id}`).press('Enter');
  await expect(row.getByText('Not a valid URL')).toBeVisible();
  await row.getByLabel(`Drive link of Nova Cut ${id}`).fill('https://drive.example.com/nova');
  await row.getByLabel(`Drive link of Nova Cut ${id}`).press('Enter');
  await expect(row.getByText('Saved')).toBeAttached();

  await row.getByRole('button', { name: `Actions for Nova Cut ${id}` }).click();
  await page.getByRole('menuitem', { name: 'Disable' }).click();
  await page
    .getByRole('dialog', { name: `Disable Nova Cut ${id}?` })
    .getByRole('button', { name: 'Disable' })
    .click();
  await expect(row).toContainText('Disabled');
  await row.getByRole('button', { name: `Actions for Nova Cut ${id}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: `Delete Nova Cut ${id}?` })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByRole('row').filter({ hasText: `nova-${id}@example.com` })).toHaveCount(0);
});

test('an editor sees no Log In As and no management actions', async ({ page, request }) => {
  const demoId = await organizationId(request, 'Demo Studio');
  await signIn(page, 'editor@demo.cutdesk.test', /\/dashboard$/);
  for (const path of ['/customers', '/editors', '/onboarding', '/admin-settings']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/dashboard$/);
  }
  await expect(page.getByRole('button', { name: /Log In As/ })).toHaveCount(0);

  await page.goto(`/organization/${demoId}`);
  await expect(page.getByRole('heading', { name: 'Demo Studio' })).toBeVisible();
  const credits = page.getByRole('region', { name: 'Credits' });
  await expect(credits).toContainText('ACTIVE');
  await expect(credits.getByRole('button', { name: 'Save credits' })).toHaveCount(0);
  await expect(credits.getByLabel('Total credits')).toHaveCount(0);
  await expect(page.getByLabel('Default review period')).toBeDisabled();
  await expect(page.getByLabel('Organization assets link')).toBeDisabled();
  await expect(page.getByLabel('Tracking code')).toBeDisabled();
  await expect(page.getByRole('button', { name: /Log In As|Delete|Complete/ })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Users' }).getByRole('listitem').first()).toBeVisible();
});

test('a superadmin chooses the role of a new staff user, an admin adds editors only (issue 36)', async ({ page }) => {
  const id = unique();
  await signIn(page, 'admin@demo.cutdesk.test', /\/dashboard$/);
  await page.goto('/admin-settings');
  await page.getByRole('button', { name: 'Add staff user' }).click();
  const asAdmin = page.getByRole('dialog', { name: 'Add staff user' });
  await expect(asAdmin.getByRole('note')).toHaveText('They join as an editor. Only a superadmin adds admins.');
  await expect(asAdmin.getByRole('radio')).toHaveCount(0);
  await asAdmin.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();

  await signIn(page, 'superadmin@demo.cutdesk.test', /\/dashboard$/);
  await page.goto('/admin-settings');
  await page.getByRole('button', { name: 'Add staff user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add staff user' });
  const role = dialog.getByRole('radiogroup', { name: 'Role' });
  await expect(role.getByRole('radio')).toHaveCount(2);
  await expect(role.getByRole('radio', { name: /^Editor/ })).toBeChecked();
  await expect(role).toContainText('Manages customers, editors, credits and onboarding');
  await role.getByRole('radio', { name: /^Admin/ }).check();
  await dialog.getByLabel('First name').fill('Ada');
  await dialog.getByLabel('Last name').fill(`Min ${id}`);
  await dialog.getByLabel('E-mail').fill(`ada-${id}@example.com`);
  await page.screenshot({ path: '/tmp/issue36/add-staff-user-role.png' });
  await dialog.getByRole('button', { name: 'Add user' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: `ada-${id}@example.com` })).toContainText('Admin');
});

test('staff search the customers list by organization, owner or e-mail, ignoring accents (issue 36)', async ({ page }) => {
  await signIn(page, 'admin@demo.cutdesk.test', /\/dashboard$/);
  const searches: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/v1/organizations' && url.searchParams.has('q')) searches.push(url.searchParams.get('q')!);
  });
  await page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Customers' }).click();
  const table = page.getByRole('table', { name: 'Customers' });
  await expect(table.getByRole('link', { name: 'Demo Studio', exact: true })).toBeVisible();
  const box = page.getByRole('searchbox', { name: 'Search customers' });
  // Typed a key at a time, asked when typing rests (not once a key: a busy machine may rest between two).
  await box.pressSequentially('NÖRTHWIND', { delay: 20 });
  await expect(table.getByRole('link', { name: 'Northwind Media' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'Demo Studio', exact: true })).toHaveCount(0);
  expect(searches.at(-1)).toBe('NÖRTHWIND');
  expect(searches.length).toBeLessThan('NÖRTHWIND'.length);
  await box.fill('hal@harborlights');
  await expect(table.getByRole('link')).toHaveText(['Harbor Lights Co']);
  await page.screenshot({ path: '/tmp/issue36/customers-search.png' });
  await box.fill('100%_');
  await expect(table).toContainText('No customers match “100%_”.');
  await page.screenshot({ path: '/tmp/issue36/customers-search-empty.png' });
  await box.fill('');
  await expect(table.getByRole('link', { name: 'Demo Studio', exact: true })).toBeVisible();
});

test('staff see the customers list sorted as people read it: accents with their letter, numbers by value, phones by their digits (issue 36)', async ({
  page,
  request,
}) => {
  const stamp = unique();
  // Registered out of order, each owner with a phone.
  const customers = [
    ['Zeta', '15550123456'],
    ['Project 12', '912'],
    ['Échelle', '5550142'],
    ['Project 6', '05550100'],
  ] as const;
  await Promise.all(
    customers.map(([word, phone]) =>
      registerOwner(request, {
        email: `sorted-${stamp}-${phone}@example.com`,
        password: 'sorted-pass-1',
        firstName: 'Sorted',
        lastName: 'Owner',
        organizationName: `${stamp} ${word}`,
        phone,
      }),
    ),
  );
  await signIn(page, 'admin@demo.cutdesk.test', /\/dashboard$/);
  await page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Customers' }).click();
  const table = page.getByRole('table', { name: 'Customers' });
  await page.getByRole('searchbox', { name: 'Search customers' }).fill(stamp);
  const names = (...words: string[]) => words.map((word) => `${stamp} ${word}`);
  // By organization, A to Z by default.
  await expect(table.getByRole('link')).toHaveText(names('Échelle', 'Project 6', 'Project 12', 'Zeta'));
  await table.getByRole('button', { name: 'Organization' }).click();
  await expect(table.getByRole('link')).toHaveText(names('Zeta', 'Project 12', 'Project 6', 'Échelle'));
  await table.getByRole('button', { name: 'Phone' }).click();
  await expect(table.getByRole('link')).toHaveText(names('Project 12', 'Project 6', 'Échelle', 'Zeta'));
  await page.screenshot({ path: '/tmp/sorting/customers-sorted.png' });
});

test('Admin Settings offers no Edit on a disabled user, only Enable (A§2: edit only when enabled)', async ({ page, request }) => {
  const stamp = unique();
  const email = `disabled-edit-${stamp}@example.com`;
  const { headers } = await registerOwner(request, {
    email,
    password: 'demo-password',
    firstName: 'Dana',
    lastName: 'Owner',
    organizationName: `Disabled Edit ${stamp}`,
  });
  const invited = await request.post('/api/v1/users', {
    headers,
    data: { email: `umar-${stamp}@example.com`, firstName: 'Umar', lastName: 'Offline', phone: '5550177' },
  });
  expect(invited.status()).toBe(201);
  const userId = ((await invited.json()) as { id: number }).id;
  expect((await request.patch(`/api/v1/users/${userId}`, { headers, data: { isEnabled: false } })).status()).toBe(200);

  await signInAs(page, email);
  await page.goto('/user/admin-settings');
  await page.getByRole('button', { name: 'Actions for Umar Offline' }).click();
  await expect(page.getByRole('menuitem', { name: /^Enable/ })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: /^Edit/ })).toHaveCount(0);
});

test('the name-required message shows once under the two name fields', async ({ page }) => {
  await staffSignIn(page, 'admin@demo.cutdesk.test');
  await page.goto('/editors');
  await page
    .getByRole('button', { name: /Add editor/ })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: 'Add editor' });
  await dialog.getByRole('button', { name: 'Add editor' }).click();
  await expect(dialog.getByText(FIELD_MESSAGES.nameRequired)).toHaveCount(1);
  await expect(dialog.getByLabel('First name')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('Last name')).toHaveAttribute('aria-invalid', 'true');
});

test("each trial user's registration link is their own", async ({ page, request }) => {
  const stamp = unique();
  const email = `trial-${stamp}@example.com`;
  await registerOwner(request, {
    email,
    password: 'trial-password',
    firstName: 'Tess',
    lastName: 'Trial',
    phone: '5551234',
    organizationName: `Trial Studio ${stamp}`,
  });

  await staffSignIn(page, 'admin@demo.cutdesk.test');
  await page.goto('/onboarding');
  await page.getByRole('tab', { name: 'Trial Users' }).click();
  const row = page.getByRole('row').filter({ hasText: email });
  const link = row.getByRole('link', { name: /login\/user/ });
  const href = (await link.getAttribute('href'))!;
  expect(new URL(href).searchParams.get('email')).toBe(email);
  expect(href).not.toMatch(/code=/);
  const others = await page
    .getByRole('table', { name: 'Trial users' })
    .getByRole('link', { name: /login\/user/ })
    .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
  expect(new Set(others).size).toBe(others.length);
});
