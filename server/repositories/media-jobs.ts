import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { MediaJobRow } from '../db/schema.ts';
import { DEFAULT_RETRY, backoffMs, type JobStatus, type NewJob, type RetryPolicy } from '../media/queue.ts';

/**
 * The media job queue's statements (table media_jobs; the policy is server/media/queue.ts's). A
 * claim is ONE statement: it picks the next due row with FOR UPDATE SKIP LOCKED and marks it
 * running with a lease in the same UPDATE, so two instances never take the same row.
 */
export function jobQueue(db: Db) {
  return {
    async enqueue(jobs: NewJob[]): Promise<number[]> {
      if (jobs.length === 0) return [];
      const rows = await db
        .insertInto('mediaJobs')
        .values(
          jobs.map((job) => ({
            kind: job.kind,
            projectId: job.projectId ?? null,
            assetId: job.assetId ?? null,
            sourceKey: job.sourceKey ?? null,
            outputKey: job.outputKey ?? null,
            payload: JSON.stringify(job.payload ?? {}),
            ...(job.priority !== undefined && { priority: job.priority }),
            ...(job.maxAttempts !== undefined && { maxAttempts: job.maxAttempts }),
            ...(job.runAt && { runAt: job.runAt }),
          })),
        )
        .returning('id')
        .execute();
      return rows.map((row) => row.id);
    },

    /**
     * Jobs whose lease ran out (their worker died or hung) go back to the queue: at once after
     * a first attempt (an instance that died is not the job's fault, and another instance should
     * take it within seconds), after the back-off of a failure from then on (a job that keeps
     * killing its worker must not take down one instance after another); those that used all
     * their attempts end failed. Safe to run from every instance at once.
     */
    async reapExpired(policy: RetryPolicy = DEFAULT_RETRY): Promise<number> {
      const base = policy.baseDelayMs;
      const cap = policy.maxDelayMs;
      const result = await sql`
        update media_jobs set
          status = case when attempts >= max_attempts then 'failed' else 'queued' end,
          last_error = 'The worker stopped before finishing (lease expired after attempt ' || attempts || ').',
          run_at = now() + case when attempts <= 1 then 0
            else least(${cap}::double precision, ${base}::double precision * power(2, attempts - 2)) end * interval '1 millisecond',
          finished_at = case when attempts >= max_attempts then now() else null end,
          locked_by = null, locked_until = null, updated_at = now()
        where status = 'running' and locked_until < now()`.execute(db);
      return Number(result.numAffectedRows ?? 0);
    },

    /** Takes the next due job of one of `kinds` for `worker`, leased for `leaseMs`; null when none is due. */
    async claim(worker: string, kinds: readonly string[], leaseMs: number): Promise<MediaJobRow | null> {
      if (kinds.length === 0) return null;
      const result = await sql<Record<string, unknown>>`
        update media_jobs j set
          status = 'running', attempts = j.attempts + 1, locked_by = ${worker},
          locked_until = now() + ${leaseMs}::double precision * interval '1 millisecond', updated_at = now()
        from (
          select id from media_jobs
          where status = 'queued' and run_at <= now() and kind = any(${sql.val([...kinds])}::text[])
          order by priority, run_at, id
          limit 1
          for update skip locked
        ) next
        where j.id = next.id
        returning j.*`.execute(db);
      const row = result.rows[0];
      return row ? toJobRow(row) : null;
    },

    /** Extends the lease; false when the job is no longer this worker's (another took it over). */
    async heartbeat(id: number, worker: string, leaseMs: number): Promise<boolean> {
      const result = await sql`
        update media_jobs set locked_until = now() + ${leaseMs}::double precision * interval '1 millisecond', updated_at = now()
        where id = ${id} and locked_by = ${worker} and status = 'running'`.execute(db);
      return Number(result.numAffectedRows ?? 0) === 1;
    },

    async complete(id: number, worker: string): Promise<boolean> {
      const result = await db
        .updateTable('mediaJobs')
        .set({ status: 'done', finishedAt: sql<Date>`now()`, updatedAt: sql<Date>`now()`, lockedBy: null, lockedUntil: null })
        .where('id', '=', id)
        .where('lockedBy', '=', worker)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Records a failed attempt: queued again after the back-off, or failed for good. */
    async fail(job: MediaJobRow, worker: string, error: unknown, policy: RetryPolicy = DEFAULT_RETRY): Promise<JobStatus> {
      const message = errorText(error);
      const permanent = (error as { permanent?: unknown } | null)?.permanent === true;
      const final = permanent || job.attempts >= job.maxAttempts;
      const status: JobStatus = final ? 'failed' : 'queued';
      await db
        .updateTable('mediaJobs')
        .set({
          status,
          lastError: message,
          runAt: final ? sql<Date>`run_at` : new Date(Date.now() + backoffMs(job.attempts, policy)),
          finishedAt: final ? sql<Date>`now()` : null,
          updatedAt: sql<Date>`now()`,
          lockedBy: null,
          lockedUntil: null,
        })
        .where('id', '=', job.id)
        .where('lockedBy', '=', worker)
        .execute();
      return status;
    },

    /** Gives a job back without counting the attempt (the instance is shutting down). */
    async release(id: number, worker: string): Promise<void> {
      await sql`
        update media_jobs set status = 'queued', attempts = greatest(attempts - 1, 0), locked_by = null, locked_until = null, updated_at = now()
        where id = ${id} and locked_by = ${worker} and status = 'running'`.execute(db);
    },

    /** Live jobs of these kinds for a project that are not for `sourceKey` any more stop here. */
    async cancelSuperseded(projectId: number, kinds: readonly string[], sourceKey: string): Promise<void> {
      await db
        .updateTable('mediaJobs')
        .set({ status: 'cancelled', finishedAt: sql<Date>`now()`, updatedAt: sql<Date>`now()`, lastError: 'Superseded by a newer final video.' })
        .where('projectId', '=', projectId)
        .where('assetId', 'is', null)
        .where('kind', 'in', [...kinds])
        .where('status', '=', 'queued')
        .where('sourceKey', '!=', sourceKey)
        .execute();
    },

    /** The kinds of the live or done work on `sourceKey` (of the project's final video when `assetId` is null): what need not be queued again. */
    async activeKinds(target: { projectId: number; assetId: null } | { assetId: number }, sourceKey: string): Promise<Set<string>> {
      let query = db.selectFrom('mediaJobs').select('kind').where('sourceKey', '=', sourceKey).where('status', 'in', ['queued', 'running', 'done']);
      query =
        target.assetId === null ? query.where('projectId', '=', target.projectId).where('assetId', 'is', null) : query.where('assetId', '=', target.assetId);
      return new Set((await query.execute()).map((row) => row.kind));
    },

    /** The project's final-video jobs on `sourceKey` that were not cancelled, newest first. */
    async finalVideoJobs(projectId: number, sourceKey: string) {
      return db
        .selectFrom('mediaJobs')
        .select(['kind', 'status', 'lastError'])
        .where('projectId', '=', projectId)
        .where('assetId', 'is', null)
        .where('sourceKey', '=', sourceKey)
        .where('status', '!=', 'cancelled')
        .orderBy('id', 'desc')
        .execute();
    },

    async get(id: number): Promise<MediaJobRow | undefined> {
      return db.selectFrom('mediaJobs').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** The project's newest `limit` jobs, newest first (staff read them with their errors). */
    async listForProject(projectId: number, limit: number): Promise<MediaJobRow[]> {
      return db.selectFrom('mediaJobs').selectAll().where('projectId', '=', projectId).orderBy('id', 'desc').limit(limit).execute();
    },
  };
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 4000 ? `${text.slice(0, 4000)}…` : text;
}

const DATE_COLUMNS = ['run_at', 'locked_until', 'created_at', 'updated_at', 'finished_at'];

/** Raw SQL rows come back snake_case (the CamelCasePlugin maps query builder results only). */
function toJobRow(row: Record<string, unknown>): MediaJobRow {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    const camel = key.replace(/_([a-z])/g, (_m, ch: string) => ch.toUpperCase());
    out[camel] = DATE_COLUMNS.includes(key) && typeof value === 'string' ? new Date(value) : value;
  }
  return out as unknown as MediaJobRow;
}
