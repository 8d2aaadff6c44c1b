import type { CreditsTable } from '../db/schema.ts';
import type { Db } from '../db/connect.ts';
import type { Insertable } from 'kysely';

/** A term's credits as a paid term starts them. */
export type TermCredits = Omit<Insertable<CreditsTable>, 'organizationId'>;

/** The credits a subscription's terms grant (server/billing/terms.ts, server/billing/monthly-credits.ts). */
export function billingCreditsRepo(db: Db) {
  return {
    /** A new term's credits replace the organization's (what was left of the previous term lapses with it). */
    async startTerm(organizationId: number, credits: TermCredits): Promise<void> {
      await db
        .insertInto('credits')
        .values({ organizationId, ...credits })
        .onConflict((oc) => oc.column('organizationId').doUpdateSet(credits))
        .execute();
    },

    async stopRenewing(organizationId: number): Promise<void> {
      await db.updateTable('credits').set({ renewable: false, renewDate: null }).where('organizationId', '=', organizationId).execute();
    },

    /** Renewable credits of organizations not deleted whose next grant is due by `today`. */
    async grantsDue(today: string) {
      return db
        .selectFrom('credits')
        .innerJoin('organizations as o', (join) => join.onRef('o.id', '=', 'credits.organizationId').on('o.deletedAt', 'is', null))
        .select([
          'credits.organizationId',
          'credits.startDate',
          'credits.endDate',
          'credits.creditsPerInterval',
          'credits.intervalMonths',
          'credits.renewable',
          'credits.renewDate',
        ])
        .where('credits.renewable', '=', true)
        .where('credits.renewDate', '<=', today)
        .execute();
    },

    /**
     * One interval's credits, and the renew date moved on, if it is still `renewDate`; false when
     * another instance granted this interval first (it also moved the date).
     */
    async grant(organizationId: number, amount: number, renewDate: string | null, next: string | null): Promise<boolean> {
      const updated = await db
        .updateTable('credits')
        .set((eb) => ({ activeCredits: eb('activeCredits', '+', amount), renewDate: next }))
        .where('organizationId', '=', organizationId)
        .where('renewable', '=', true)
        .where('renewDate', '=', renewDate)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) > 0;
    },
  };
}
