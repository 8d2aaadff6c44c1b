import type { Db } from '../db/connect.ts';
import { billingDb } from './db.ts';

/** Demo coupons (the plans come with migration 0009): one percent off, one amount off with a cap. */
export async function seedBillingDemo(database: Db): Promise<void> {
  await billingDb(database)
    .insertInto('coupons')
    .values([
      { code: 'WELCOME10', percentOff: 10, amountOff: null, validUntil: null, maxRedemptions: null },
      { code: 'LAUNCH100', percentOff: null, amountOff: 10_000, validUntil: null, maxRedemptions: 50 },
    ])
    .execute();
}
