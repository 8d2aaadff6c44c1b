import type { BillingState } from '../../src/domain/billing.ts';
import type { SubscriptionRow, SubscriptionsTable } from '../billing/schema.ts';
import type { Db } from '../db/connect.ts';
import type { Insertable } from 'kysely';

/** What renewals and purchases read of the organization a subscription belongs to. */
export interface SubscribedOrganization {
  renewableAt: Date | null;
  deletedAt: Date | null;
}

/** A renewal attempt's view of its subscription: the claim holds only while these are unchanged. */
type RenewalView = Pick<SubscriptionRow, 'id' | 'renewableAt' | 'renewalFailures'>;

const LIVE = ['active', 'past_due'] as const satisfies readonly BillingState[];
/** What an organization's subscription list shows: failed attempts and reservations in flight are not subscriptions. */
const SHOWN = ['active', 'past_due', 'ended'] as const satisfies readonly BillingState[];

/**
 * Subscriptions (migration 0009) and what they set on their organization. Functions that say
 * "in the caller's transaction" expect `db` to be one (server/billing/terms.ts takes the lock).
 */
export function billingSubscriptionsRepo(db: Db) {
  return {
    async byId(id: number): Promise<SubscriptionRow | undefined> {
      return db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async byKey(organizationId: number, idempotencyKey: string): Promise<SubscriptionRow | undefined> {
      return db
        .selectFrom('subscriptions')
        .selectAll()
        .where('organizationId', '=', organizationId)
        .where('idempotencyKey', '=', idempotencyKey)
        .executeTakeFirst();
    },

    /** Newest first. */
    async listShown(organizationId: number): Promise<SubscriptionRow[]> {
      return db
        .selectFrom('subscriptions')
        .selectAll()
        .where('organizationId', '=', organizationId)
        .where('status', 'in', SHOWN)
        .orderBy('id', 'desc')
        .execute();
    },

    async organization(organizationId: number): Promise<SubscribedOrganization | undefined> {
      return db.selectFrom('organizations').select(['renewableAt', 'deletedAt']).where('id', '=', organizationId).executeTakeFirst();
    },

    /**
     * Takes the organization's row lock (in the caller's transaction) and reads it. Every
     * transaction that changes an organization's subscription takes it first (server/billing/terms.ts).
     */
    async lockOrganization(organizationId: number): Promise<SubscribedOrganization | undefined> {
      return db.selectFrom('organizations').select(['renewableAt', 'deletedAt']).where('id', '=', organizationId).forUpdate().executeTakeFirst();
    },

    /** A reservation: a `pending` row (the unique index subscriptions_one_live refuses a second live one). */
    async insertPending(values: Omit<Insertable<SubscriptionsTable>, 'status'>): Promise<SubscriptionRow> {
      return db
        .insertInto('subscriptions')
        .values({ ...values, status: 'pending' })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** pending → active; false when another request got there first. */
    async activate(id: number): Promise<boolean> {
      const row = await db
        .updateTable('subscriptions')
        .set({ status: 'active', updatedAt: new Date() })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** pending → failed with the message the purchase answered; false when it was no longer pending. */
    async markFailed(id: number, failureMessage: string): Promise<boolean> {
      const row = await db
        .updateTable('subscriptions')
        .set({ status: 'failed', failureMessage, updatedAt: new Date() })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Purchases still pending since before `createdBefore` (their request ended long ago). */
    async pendingSince(createdBefore: Date): Promise<SubscriptionRow[]> {
      return db.selectFrom('subscriptions').selectAll().where('status', '=', 'pending').where('createdAt', '<', createdBefore).execute();
    },

    /** Live subscriptions whose renewal date has come (`today` included). */
    async dueForRenewal(today: string): Promise<SubscriptionRow[]> {
      return db.selectFrom('subscriptions').selectAll().where('status', 'in', LIVE).where('renewableAt', '<=', today).orderBy('id').execute();
    },

    /**
     * The paid renewal's new term, if the run's view still holds and no cancellation landed
     * meanwhile; false otherwise (another run got here first, or the owner cancelled).
     */
    async claimRenewed(seen: RenewalView, term: { startDate: string; renewableAt: string; amount: number }): Promise<boolean> {
      const row = await db
        .updateTable('subscriptions')
        .set({
          status: 'active',
          startDate: term.startDate,
          renewableAt: term.renewableAt,
          renewalFailures: 0,
          amount: term.amount,
          failureMessage: null,
          updatedAt: new Date(),
        })
        .where('id', '=', seen.id)
        .where('status', 'in', LIVE)
        .where('renewableAt', '=', seen.renewableAt)
        .where('renewalFailures', '=', seen.renewalFailures)
        .where('isCancelled', '=', false)
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** A failed renewal attempt, if the run's view still holds; false otherwise. */
    async claimFailedRenewal(seen: RenewalView, failures: number, failureMessage: string): Promise<boolean> {
      const row = await db
        .updateTable('subscriptions')
        .set({ status: 'past_due', renewalFailures: failures, failureMessage, updatedAt: new Date() })
        .where('id', '=', seen.id)
        .where('status', 'in', LIVE)
        .where('renewableAt', '=', seen.renewableAt)
        .where('renewalFailures', '=', seen.renewalFailures)
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    async isCancelled(id: number): Promise<boolean> {
      const row = await db.selectFrom('subscriptions').select('isCancelled').where('id', '=', id).executeTakeFirst();
      return row?.isCancelled ?? false;
    },

    /** Live → ended; false when it was not live. */
    async end(id: number, failureMessage: string | null): Promise<boolean> {
      const row = await db
        .updateTable('subscriptions')
        .set({ status: 'ended', failureMessage, updatedAt: new Date() })
        .where('id', '=', id)
        .where('status', 'in', LIVE)
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Marks the organization's live subscription cancelled at its term's end; false when none is live. */
    async cancelLive(organizationId: number): Promise<boolean> {
      const row = await db
        .updateTable('subscriptions')
        .set({ isCancelled: true, cancelledAt: new Date(), updatedAt: new Date() })
        .where('organizationId', '=', organizationId)
        .where('status', 'in', LIVE)
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    async markOrganizationCancelled(organizationId: number): Promise<void> {
      await db.updateTable('organizations').set({ isCancelled: true }).where('id', '=', organizationId).execute();
    },

    /** A paid term's renewal date and storage on the organization (and no longer cancelled). */
    async setOrganizationTerm(organizationId: number, renewableAt: Date, storageTb: number): Promise<void> {
      await db.updateTable('organizations').set({ renewableAt, isCancelled: false, storageTb }).where('id', '=', organizationId).execute();
    },

    /** A§4: no renewableAt is "inactive". */
    async clearOrganizationRenewal(organizationId: number): Promise<void> {
      await db.updateTable('organizations').set({ renewableAt: null }).where('id', '=', organizationId).execute();
    },

    /** A§2 onboarding: the first purchase orders the plan's kit; a later one does not send another. */
    async orderKitOnce(organizationId: number, kitType: string | null, orderedAt: string): Promise<void> {
      await db
        .updateTable('organizations')
        .set({ kitOrdered: true, kitType, kitOrderedAt: orderedAt })
        .where('id', '=', organizationId)
        .where('kitOrdered', '=', false)
        .execute();
    },
  };
}
