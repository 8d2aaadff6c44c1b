import { expect, test } from '@playwright/test';
import { BILLING_MESSAGES, termDates } from '../src/domain/billing.ts';
import { businessToday } from '../src/domain/business-calendar.ts';
import { formatDate } from '../src/lib/format.ts';

/**
 * Issue 11: the trial owner of Blue Fern Bakery buys a plan in the Subscription tab (a declined
 * card first), sees it running with ACTIVE credits, then cancels it.
 */
test('the trial owner pays for a plan with a coupon after a declined card, then cancels it', async ({ page }) => {
  await page.goto('/login/user');
  await page.getByLabel('E-mail').fill('bea@bluefern.demo.cutdesk.test');
  await page.getByLabel('Password').fill('demo-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/user\/projects$/);
  await expect(page.getByTestId('credits-meter')).toHaveText('No credits');

  await page.goto('/user/admin-settings?tab=subscription');
  await expect(page.getByRole('tab', { name: 'Subscription' })).toHaveAttribute('aria-selected', 'true');
  const plans = page.getByRole('list', { name: 'Plans' });
  await expect(plans.getByRole('button', { name: /^Choose / })).toHaveCount(3);
  const growth = plans.getByRole('listitem', { name: 'Growth' });
  await expect(growth).toContainText('$899.00');
  await expect(growth).toContainText('$10,788.00 per year');
  await expect(growth).toContainText('4 credits every month');
  await expect(growth).toContainText('12-month term');
  await growth.getByRole('button', { name: 'Choose Growth' }).click();

  const summary = page.getByRole('complementary', { name: 'Order summary' });
  await expect(summary.getByTestId('summary-total')).toHaveText('$10,788.00');
  const renewsOn = formatDate(termDates(businessToday(), 12).renewableAt);
  await expect(summary).toContainText(`Renews on ${renewsOn} at $10,788.00; credits granted monthly`);

  // A wrong code says so under the field; WELCOME10 takes 10% off.
  await summary.getByLabel('Coupon code').fill('NOT-A-CODE');
  await expect(summary.getByText(BILLING_MESSAGES.couponInvalid)).toBeVisible();
  await summary.getByLabel('Coupon code').fill('WELCOME10');
  await expect(summary.getByText('WELCOME10: 10% off applied')).toBeVisible();
  await expect(summary.getByTestId('summary-discount')).toHaveText('−$1,078.80');
  await expect(summary.getByTestId('summary-total')).toHaveText('$9,709.20');

  // Paying with empty fields shows each field's own message and keeps the button disabled.
  const pay = summary.getByRole('button', { name: 'Pay $9,709.20' });
  await pay.click();
  const billing = page.getByRole('region', { name: 'Billing details' });
  await expect(billing.getByText('Phone is required', { exact: true })).toBeVisible();
  await expect(billing.getByText('Second phone is required', { exact: true })).toBeVisible();
  await expect(billing.getByText('Please select a country')).toBeVisible();
  await expect(page.getByText('Card number is required')).toBeVisible();
  await expect(pay).toBeDisabled();

  await billing.getByLabel('Full name').fill('Bea Fern');
  await billing.getByLabel('Company').fill('Blue Fern Bakery');
  await billing.getByLabel('Phone', { exact: true }).fill('+1 555 0177');
  await billing.getByLabel('Second phone').fill('555 0178');
  await billing.getByLabel('E-mail').fill('bea@bluefern.demo.cutdesk.test');
  await billing.getByLabel('Address').fill('12 Fern Street');
  await billing.getByLabel('City').fill('Portland');
  await billing.getByLabel('Postal code').fill('97201');
  await billing.getByLabel('Country').selectOption({ label: 'United States' });
  const shipping = page.getByRole('region', { name: 'Shipping details' });
  await expect(shipping.getByLabel('Same as billing')).toBeChecked();

  const payment = page.getByRole('region', { name: 'Payment' });
  await payment.getByLabel('Card number').fill('4000 0000 0000 0002');
  await payment.getByLabel('Expiration (MM/YY)').fill('12/34');
  await payment.getByLabel('CVC').fill('123');
  await payment.getByLabel('Name on card').fill('Bea Fern');
  await expect(pay).toBeEnabled();
  await pay.click();
  await expect(payment.getByText(BILLING_MESSAGES.declined)).toBeVisible();
  // The refused card's number and code are gone from the form.
  await expect(payment.getByLabel('Card number')).toHaveValue('');
  await expect(payment.getByLabel('CVC')).toHaveValue('');
  await expect(page.getByRole('region', { name: 'Your subscription' })).toHaveCount(0);

  await payment.getByLabel('Card number').fill('4242424242424242');
  await expect(payment.getByText(BILLING_MESSAGES.declined)).toHaveCount(0);
  await payment.getByLabel('CVC').fill('123');
  await pay.click();

  const current = page.getByRole('region', { name: 'Your subscription' });
  await expect(current).toContainText('Growth');
  await expect(current).toContainText('active');
  await expect(current).toContainText(`Renews on${renewsOn} at $10,788.00`);
  await expect(current).toContainText('Visa •••• 4242, expires 12/34');
  const invoices = page.getByRole('table', { name: 'Invoices' });
  await expect(invoices.getByRole('row')).toHaveCount(2);
  await expect(invoices).toContainText('$9,709.20');
  await expect(invoices).toContainText('paid');
  await expect(page.getByTestId('credits-card')).toContainText('ACTIVE');
  await expect(page.getByTestId('credits-meter')).toHaveText('0 / 4');

  await current.getByRole('button', { name: 'Cancel subscription' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel subscription' });
  await expect(dialog).toContainText(`keep working until ${renewsOn}`);
  await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(current).toContainText('canceled');
  await expect(current).toContainText(`Ends on${renewsOn}`);
  await expect(current.getByRole('button', { name: 'Cancel subscription' })).toHaveCount(0);
  // Credits keep working until the end of the paid term.
  await expect(page.getByTestId('credits-meter')).toHaveText('0 / 4');
});
