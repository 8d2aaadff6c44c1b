import { expect, test, type Page } from '@playwright/test';
import { staffSignIn } from './sign-in.ts';
import { CATALOG_MESSAGES } from '../src/domain/billing.ts';
import { registerOwner } from './fresh-organization.ts';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();

async function openPlansAndCoupons(page: Page) {
  await page.goto('/admin-settings');
  await page.getByRole('tab', { name: 'Plans & coupons' }).click();
  await expect(page.getByRole('table', { name: 'Payment plans' })).toBeVisible();
}

test('the superadmin creates a coupon and a plan, sees them listed and retires the coupon', async ({ page }) => {
  await staffSignIn(page, 'superadmin@demo.cutdesk.test');
  await openPlansAndCoupons(page);
  const coupons = page.getByRole('table', { name: 'Coupons' });
  // The demo coupons are listed with their discounts.
  await expect(coupons.getByRole('row').filter({ hasText: 'WELCOME10' })).toContainText('10 %');
  await expect(coupons.getByRole('row').filter({ hasText: 'LAUNCH100' })).toContainText('$100.00 off');

  // A code that exists is refused under the code field.
  await page.getByRole('button', { name: 'New coupon' }).click();
  let dialog = page.getByRole('dialog', { name: 'New coupon' });
  await dialog.getByRole('textbox', { name: 'Code' }).fill('WELCOME10');
  await dialog.getByRole('textbox', { name: 'Percent off' }).fill('5');
  await dialog.getByRole('button', { name: 'Create coupon' }).click();
  await expect(dialog.getByText(CATALOG_MESSAGES.codeExists)).toBeVisible();

  // A new code: amount off, typed in dollars, with a cap.
  const code = `E2E-${unique()}`;
  await dialog.getByRole('textbox', { name: 'Code' }).fill(code);
  await dialog.getByRole('radio', { name: 'Amount off' }).check();
  await dialog.getByRole('textbox', { name: /Amount off/ }).fill('25.50');
  await dialog.getByRole('textbox', { name: 'Maximum redemptions' }).fill('20');
  await dialog.getByRole('button', { name: 'Create coupon' }).click();
  await expect(dialog).toBeHidden();
  const couponRow = coupons.getByRole('row').filter({ hasText: code });
  await expect(couponRow).toContainText('$25.50 off');
  await expect(couponRow).toContainText('0 / 20');
  await expect(couponRow).toContainText(/active/i);

  // A new plan, its prices typed as currency units. Saved off sale: the pricing and checkout
  // specs, running against the same server, count the plans on sale.
  const name = `E2E plan ${unique()}`;
  await page.getByRole('button', { name: 'New plan' }).click();
  dialog = page.getByRole('dialog', { name: 'New plan' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('textbox', { name: 'Monthly credits' }).fill('3');
  await dialog.getByRole('textbox', { name: 'Storage (TB)' }).fill('2');
  await dialog.getByRole('textbox', { name: /Price per month/ }).fill('124.17');
  await dialog.getByRole('textbox', { name: /Price per year/ }).fill('1,490.00');
  await dialog.getByRole('textbox', { name: 'Onboarding kit' }).fill('Starter kit');
  await dialog.getByRole('checkbox', { name: /Put on sale now/ }).uncheck();
  await dialog.getByRole('button', { name: 'Create plan' }).click();
  await expect(dialog).toBeHidden();
  const planRow = page.getByRole('table', { name: 'Payment plans' }).getByRole('row').filter({ hasText: name });
  await expect(planRow).toContainText('$124.17');
  await expect(planRow).toContainText('$1,490.00');
  await expect(planRow).toContainText('12 months');
  await expect(planRow).toContainText('Starter kit');
  await expect(planRow).toContainText(/retired/i);
  await expect(planRow.getByRole('button', { name: `Bring back ${name}` })).toBeVisible();
  expect(((await (await page.request.get('/api/v1/payment-plans')).json()) as { name: string }[]).map((p) => p.name)).not.toContain(name);

  // Editing keeps the code and changes the cap.
  await couponRow.getByRole('button', { name: `Edit ${code}` }).click();
  dialog = page.getByRole('dialog', { name: `Edit ${code}` });
  await expect(dialog.getByRole('textbox', { name: 'Code' })).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Maximum redemptions' }).fill('30');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(couponRow).toContainText('0 / 30');
  await expect(couponRow).toContainText('$25.50 off');

  // Retiring the coupon is confirmed, then it shows as retired.
  await couponRow.getByRole('button', { name: `Retire ${code}` }).click();
  const confirm = page.getByRole('dialog', { name: `Retire ${code}?` });
  await expect(confirm).toContainText('Customers can no longer use it at checkout.');
  await confirm.getByRole('button', { name: 'Retire' }).click();
  await expect(confirm).toBeHidden();
  await expect(couponRow).toContainText(/retired/i);
  await expect(couponRow.getByRole('button', { name: `Retire ${code}` })).toHaveCount(0);
});

test('the organization page shows "No subscription", then the subscription panel once the owner buys a plan', async ({ page, request }) => {
  // A fresh organization: the demo trial organization is bought for by the checkout spec.
  const stamp = unique();
  const name = `Aardvark Billing ${stamp}`;
  const { headers, organizationId } = await registerOwner(request, {
    email: `billing-${stamp.toLowerCase()}@example.com`,
    password: 'billing-password',
    firstName: 'Ada',
    lastName: 'Aardvark',
    phone: '5551234',
    organizationName: name,
  });

  await staffSignIn(page, 'superadmin@demo.cutdesk.test');
  await page.goto(`/organization/${organizationId}`);
  const panel = page.getByRole('region', { name: 'Subscription', exact: true });
  await expect(panel).toContainText('No subscription');
  await expect(panel).toContainText('This organization has not bought a plan.');
  await expect(panel).toContainText(/inactive/i);
  await expect(panel).toContainText('Not ordered');

  // The owner buys the first plan on sale with the 10 % coupon.
  const plans = (await (await request.get('/api/v1/payment-plans')).json()) as { id: number; name: string; kitType: string | null }[];
  const plan = plans[0]!;
  const card = await request.post('/api/v1/payment-methods', { headers, data: { number: '4242 4242 4242 4242', expMonth: 4, expYear: 2031, cvc: '123' } });
  expect(card.status()).toBe(201);
  const { paymentMethodId } = (await card.json()) as { paymentMethodId: string };
  const address = { name: 'Ada Aardvark', company: name, phone: '+1 555 0100', address: '1 Burrow Lane', city: 'Austin', code: '73301', country: 'US' };
  const bought = await request.post(`/api/v1/organizations/${organizationId}/subscriptions`, {
    headers,
    data: {
      paymentPlanId: plan.id,
      paymentMethodId,
      coupon: 'WELCOME10',
      billing: { ...address, phone2: '+1 555 0101', email: `billing-${stamp.toLowerCase()}@example.com` },
      shipping: address,
      idempotencyKey: `e2e-${stamp}`,
    },
  });
  expect(bought.status()).toBe(201);

  await page.reload();
  await expect(panel).toContainText(plan.name);
  await expect(panel).toContainText(/active/i);
  await expect(panel).toContainText('Visa •••• 4242');
  await expect(panel).toContainText(`billing-${stamp.toLowerCase()}@example.com`);
  await expect(panel).toContainText('1 Burrow Lane');
  await expect(panel).toContainText(plan.kitType ? `${plan.kitType}, ordered` : 'Not ordered');
  const invoices = panel.getByRole('table', { name: 'Invoices' });
  await expect(invoices.getByRole('row')).toHaveCount(2);
  await expect(invoices).toContainText(/paid/i);

  // The customers list shows the plan beside the expiry.
  await page.goto('/customers');
  await expect(page.getByRole('table', { name: 'Customers' }).getByRole('row').filter({ hasText: name })).toContainText(plan.name);
});
