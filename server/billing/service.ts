import { addCard } from './card-form.ts';
import { cancelSubscription } from './cancellation.ts';
import type { BillingDeps } from './deps.ts';
import { subscriptionPurchase } from './purchase.ts';
import { checkCoupon, plansOnSale } from './storefront.ts';
import { listSubscriptions } from './subscription-view.ts';

/**
 * Billing's customer side (issue 11) as the routes call it, put together from its units:
 * the storefront (plans, coupon check), the embedded gateway's card form, the purchase
 * (./purchase.ts, finished by ./purchase-completion.ts), the list and the cancellation.
 */
export function billingService(deps: BillingDeps) {
  const { db, providers, log } = deps;
  return {
    plans: () => plansOnSale(db),
    checkCoupon: (organizationId: number, code: string, today: string) => checkCoupon(db, organizationId, code, today),
    addCard: (organizationId: number, body: Record<string, unknown>, today: string) => addCard(db, providers.default, organizationId, body, today),
    purchase: subscriptionPurchase(deps),
    list: (organizationId: number, withDetails: boolean) => listSubscriptions(db, organizationId, withDetails),
    cancel: (organizationId: number, today: string) => cancelSubscription(db, log, organizationId, today),
  };
}
