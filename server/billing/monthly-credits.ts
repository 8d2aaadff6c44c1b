import { monthlyGrantDue } from '../../src/domain/billing.ts';
import { nextRenewDate } from '../../src/domain/subscription.ts';
import type { Db } from '../db/connect.ts';
import { billingCreditsRepo } from '../repositories/billing-credits.ts';

/** Catching up after a long stop grants at most this many months per organization per run. */
const MAX_GRANTS_PER_RUN = 36;

/**
 * Credits renew every interval (C§1: monthly for a subscription). Unused credits roll over
 * within the term: they were paid for with the year. They lapse with the term's end date
 * (the credits are INACTIVE after it, C§4), and a new term starts from its first month's grant.
 * Works for every renewable credits row, staff-set ones included. Each grant is a conditional
 * update on the renew date the run read, so instances running at once grant each month once.
 */
export async function grantMonthlyCredits(db: Db, today: string): Promise<number> {
  const credits = billingCreditsRepo(db);
  let granted = 0;
  for (const row of await credits.grantsDue(today)) {
    let renewDate = row.renewDate;
    for (let i = 0; i < MAX_GRANTS_PER_RUN && monthlyGrantDue(renewDate, row.endDate, today); i++) {
      const next = nextRenewDate({ ...row, renewable: true }, renewDate!);
      // Another instance granted this month first: it also moved the date, so stop here.
      if (!(await credits.grant(row.organizationId, row.creditsPerInterval, renewDate, next))) break;
      granted += 1;
      renewDate = next;
    }
  }
  return granted;
}
