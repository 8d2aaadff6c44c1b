import type { Db } from '../db/connect.ts';
import { billingCatalogRepo } from '../repositories/billing-catalog.ts';

/** Demo coupons (the plans come with migration 0009): one percent off, one amount off with a cap. */
export async function seedBillingDemo(database: Db): Promise<void> {
  const catalog = billingCatalogRepo(database);
  await catalog.insertCoupon('WELCOME10', { percentOff: 10, amountOff: null, validUntil: null, maxRedemptions: null, retired: false });
  await catalog.insertCoupon('LAUNCH100', { percentOff: null, amountOff: 10_000, validUntil: null, maxRedemptions: 50, retired: false });
}
