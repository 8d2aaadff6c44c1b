import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';

/**
 * C§4: a project whose review window closed is completed (approved). One UPDATE with the
 * condition in its WHERE, so any number of instances may run it at once without harm.
 */
export async function completeClosedReviews(db: Db, now = new Date()): Promise<number> {
  const result = await db
    .updateTable('projects')
    .set({ status: 'APPROVED' })
    .where('status', '=', 'IN_REVIEW')
    .where('reviewPeriod', '>', 0)
    .where('reviewStartedAt', 'is not', null)
    .where(sql<boolean>`review_started_at + review_period * interval '1 day' <= ${now}`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
