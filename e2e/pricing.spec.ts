import { expect, test } from '@playwright/test';
import { customerSignIn as signInAs } from './sign-in.ts';

interface Plan {
  id: number;
  name: string;
  pricePerMonth: number;
  pricePerYear: number;
  currency: string;
}

/** "$899" for 89900 usd: whole amounts as the cards show them. */
const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100).replace(/\.00$/, '');

test('an anonymous visitor sees the three plans with their prices and goes on to create an account', async ({ page, request }) => {
  const plans = (await (await request.get('/api/v1/payment-plans')).json()) as Plan[];
  expect(plans).toHaveLength(3);

  await page.goto('/pricing');
  const cards = page.getByTestId('plan-card');
  await expect(cards).toHaveCount(3);
  for (const [index, plan] of plans.entries()) {
    const card = cards.nth(index);
    await expect(card.getByRole('heading', { name: plan.name })).toBeVisible();
    await expect(card.getByTestId('plan-price-month')).toHaveText(money(plan.pricePerMonth, plan.currency));
    await expect(card.getByTestId('plan-price-year')).toContainText(`${money(plan.pricePerYear, plan.currency)} per year`);
    await expect(card.getByRole('link', { name: `Get started with ${plan.name}` })).toHaveAttribute('href', '/register');
  }
  // The middle plan is the one put forward.
  await expect(cards.nth(1)).toHaveClass(/is-featured/);
  await expect(cards.nth(1)).toContainText('Recommended');
  await expect(page.getByRole('heading', { name: 'How it works' })).toBeVisible();

  await page.getByRole('banner').getByRole('link', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/register$/);
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
});

test("a signed-in customer's footer Pricing link opens the plans inside the app", async ({ page }) => {
  await signInAs(page, 'user@demo.cutdesk.test');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(page.locator('.topbar')).toContainText('Demo Studio');
  await expect(page.getByTestId('plan-card')).toHaveCount(3);
  // Only the owner buys (C§6): a user is told whom to ask, with no button to a checkout.
  await expect(page.getByText("Ask your organization's owner to subscribe.")).toHaveCount(3);
  await expect(page.getByRole('link', { name: /^Choose / })).toHaveCount(0);
});

test('the trial owner picks a plan and lands on the Subscription tab with it preselected', async ({ page, request }) => {
  const plans = (await (await request.get('/api/v1/payment-plans')).json()) as Plan[];
  const growth = plans[1]!;
  await signInAs(page, 'bea@bluefern.demo.cutdesk.test');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  await page.getByRole('link', { name: `Choose ${growth.name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/user/admin-settings\\?tab=subscription&plan=${growth.id}$`));
});
