import { sql } from 'kysely';
import { REVIEW_DAY_MS } from '../../src/domain/review-window.ts';
import type { Db } from '../db/connect.ts';

/**
 * C§4: a project whose review window closed is completed (approved). One UPDATE with the
 * condition in its WHERE, so any number of instances may run it at once without harm. The
 * window is src/domain/review-window.ts's (`reviewClosesAt`: the start plus `reviewPeriod`
 * review days of REVIEW_DAY_MS each, passed in — never the database's calendar `interval
 * '1 day'`, which follows the session's time zone across daylight-saving changes).
 */
export async function completeClosedReviews(db: Db, now = new Date()): Promise<number> {
  const result = await db
    .updateTable('projects')
    .set({ status: 'APPROVED' })
    .where('status', '=', 'IN_REVIEW')
    .where('reviewPeriod', '>', 0)
    .where('reviewStartedAt', 'is not', null)
    .where(sql<boolean>`review_started_at + review_period * (${REVIEW_DAY_MS}::double precision * interval '1 millisecond') <= ${now}`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
