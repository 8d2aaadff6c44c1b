import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { MediaJobRow } from '../db/schema.ts';

/**
 * A job queue kept in PostgreSQL (works the same on PGlite, which is one connection).
 *
 * A claim is ONE statement: it picks the next due row with FOR UPDATE SKIP LOCKED and marks it
 * running with a lease (`locked_until`) in the same UPDATE. No transaction stays open while
 * the job runs, so a single PGlite connection keeps serving requests, and two instances on a
 * PostgreSQL server never take the same row: the second one skips the locked row, then sees it
 * running. A worker extends its lease while it works (heartbeat); a worker that dies stops
 * extending it, and once the lease has run out the job is queued again (or failed when it has
 * used its attempts). Failures are retried with exponential back-off and jitter; the last
 * error stays on the row, so a failed job is visible with its reason.
 */

export type JobStatus = MediaJobRow['status'];

export interface NewJob {
  kind: string;
  projectId?: number | null;
  assetId?: number | null;
  sourceKey?: string | null;
  outputKey?: string | null;
  payload?: Record<string, unknown>;
  /** Lower runs first (default 100). */
  priority?: number;
  maxAttempts?: number;
  /** Not before this instant (default now). */
  runAt?: Date;
}

export interface RetryPolicy {
  /** Delay after the first failure; doubles with each further one. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseDelayMs: 10_000, maxDelayMs: 15 * 60_000 };

/** Delay before attempt `attempts + 1`, after `attempts` failures: base·2^(n-1), capped, ±20 % jitter. */
export function backoffMs(attempts: number, policy: RetryPolicy = DEFAULT_RETRY, random = Math.random): number {
  const raw = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(raw * (0.8 + 0.4 * random()));
}

/** An error that retrying cannot fix (the source is gone, the input is not a video): the job fails at once. */
export class PermanentJobError extends Error {
  readonly permanent = true;
}

export function workerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/** Queue operations on `db`. */
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
