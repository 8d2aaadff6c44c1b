import type { CardDetails, ProviderName } from '../billing/payment-provider.ts';
import type { Db } from '../db/connect.ts';

/** An organization's customer record and cards at a payment provider (migration 0009). */
export function billingCustomersRepo(db: Db) {
  async function customerId(organizationId: number, provider: ProviderName): Promise<string | undefined> {
    const row = await db
      .selectFrom('billingCustomers')
      .select('providerCustomerId')
      .where('organizationId', '=', organizationId)
      .where('provider', '=', provider)
      .executeTakeFirst();
    return row?.providerCustomerId;
  }

  return {
    customerId,

    /** Keeps the first customer id stored for the organization; answers the one that stays. */
    async saveCustomerId(organizationId: number, provider: ProviderName, providerCustomerId: string): Promise<string> {
      await db
        .insertInto('billingCustomers')
        .values({ organizationId, provider, providerCustomerId })
        .onConflict((oc) => oc.columns(['organizationId', 'provider']).doNothing())
        .execute();
      return (await customerId(organizationId, provider)) ?? providerCustomerId;
    },

    /** The organization that added the card, if any did. */
    async cardOwner(providerPaymentMethodId: string): Promise<number | undefined> {
      const row = await db
        .selectFrom('paymentMethods')
        .select('organizationId')
        .where('providerPaymentMethodId', '=', providerPaymentMethodId)
        .executeTakeFirst();
      return row?.organizationId;
    },

    async card(providerPaymentMethodId: string): Promise<CardDetails | undefined> {
      return db
        .selectFrom('paymentMethods')
        .select(['brand', 'last4', 'expMonth', 'expYear'])
        .where('providerPaymentMethodId', '=', providerPaymentMethodId)
        .executeTakeFirst();
    },

    /** Records a card of the organization (brand, last four, expiry only). */
    async saveCard(organizationId: number, provider: ProviderName, providerPaymentMethodId: string, card: CardDetails): Promise<void> {
      await db
        .insertInto('paymentMethods')
        .values({ organizationId, provider, providerPaymentMethodId, brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear })
        .onConflict((oc) =>
          oc
            .column('providerPaymentMethodId')
            .doUpdateSet({ brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear })
            .where('paymentMethods.organizationId', '=', organizationId),
        )
        .execute();
    },
  };
}
