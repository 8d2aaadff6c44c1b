import type { Db } from '../db/connect.ts';

/**
 * Media jobs still of interest to an operator, counted by kind and status: queued (the queue's
 * depth), running and failed. These are the whole cluster's (one table for every instance);
 * `done` and `cancelled` rows are history and left out.
 */
export const MEDIA_JOB_STATES = ['queued', 'running', 'failed'] as const;

export async function mediaJobCounts(db: Db): Promise<{ kind: string; status: string; count: number }[]> {
  const rows = await db
    .selectFrom('mediaJobs')
    .select((eb) => ['kind', 'status', eb.fn.countAll<string>().as('count')])
    .where('status', 'in', MEDIA_JOB_STATES)
    .groupBy(['kind', 'status'])
    .execute();
  return rows.map((row) => ({ kind: row.kind, status: row.status, count: Number(row.count) }));
}
