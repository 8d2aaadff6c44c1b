import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connect.ts';
import type { BillingNotices } from './notices.ts';
import type { PaymentProviders } from './payment-provider.ts';

/** What billing's units take: plain parts, so the routes, the billing job and tests call them alike. */
export interface BillingDeps {
  db: Db;
  /** New subscriptions use the default gateway; an existing one the gateway its row names. */
  providers: PaymentProviders;
  log: FastifyBaseLogger;
  notices?: BillingNotices | undefined;
  /**
   * Runs work the answer need not wait for (the server's `app.background.run`: a receipt is
   * sent after the reply, and shutdown waits for it). Without it (the billing job) the work is
   * awaited in line.
   */
  later?: (name: string, task: () => Promise<unknown>) => void;
}
