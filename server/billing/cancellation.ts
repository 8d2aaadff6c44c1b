import type { FastifyBaseLogger } from 'fastify';
import { BILLING_MESSAGES } from '../../src/domain/billing.ts';
import type { Db } from '../db/connect.ts';
import { notFound } from '../http-error.ts';
import { billingSubscriptionsRepo } from '../repositories/billing-subscriptions.ts';

/**
 * Cancels at the end of the term: nothing is refunded, the credits and storage stay until
 * renewableAt, and the renewal job ends the subscription then instead of charging. Asking
 * twice is the same as asking once. A subscription set by staff (no row here) is marked too.
 * No gateway is asked: renewals are charged by our own job, so there is nothing to stop there.
 */
export async function cancelSubscription(db: Db, log: FastifyBaseLogger, organizationId: number, today: string): Promise<void> {
  const done = await db.transaction().execute(async (tx) => {
    const subscriptions = billingSubscriptionsRepo(tx);
    const organization = await subscriptions.lockOrganization(organizationId);
    const live = await subscriptions.cancelLive(organizationId);
    const staffSet = organization?.renewableAt && organization.renewableAt.toISOString().slice(0, 10) >= today;
    if (!live && !staffSet) return false;
    await subscriptions.markOrganizationCancelled(organizationId);
    return true;
  });
  if (!done) throw notFound(BILLING_MESSAGES.noSubscription);
  log.info({ organizationId }, 'subscription cancelled at the end of its term');
}
