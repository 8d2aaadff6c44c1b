import type { Kysely, Transaction } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import type { BillingTables } from './schema.ts';

/**
 * The database as the billing code sees it: the app's tables plus migration 0009's. Once
 * server/db/schema.ts's Database includes BillingTables this is the same type and the cast
 * below changes nothing.
 */
export type BillingDb = Kysely<Database & BillingTables>;
export type BillingTx = Transaction<Database & BillingTables>;

export function billingDb(db: Db | BillingDb): BillingDb {
  return db as unknown as BillingDb;
}
