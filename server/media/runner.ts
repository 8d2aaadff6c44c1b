import type { Db } from '../db/connect.ts';
import { isDatabaseUnavailable, unavailableFields } from '../db/errors.ts';
import type { MediaJobRow } from '../db/schema.ts';
import { DEFAULT_RETRY, workerId, type RetryPolicy } from './queue.ts';
import { jobQueue } from '../repositories/media-jobs.ts';

export interface JobContext {
  job: MediaJobRow;
  /** Aborted when the lease is lost or the runner stops: stop work (kill ffmpeg) and throw. */
  signal: AbortSignal;
}

export type JobHandler = (context: JobContext) => Promise<void>;

export interface RunnerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface RunnerOptions {
  db: Db;
  handlers: Record<string, JobHandler>;
  /** Kinds this instance can run now (e.g. none of the ffmpeg ones while ffmpeg is missing). Re-read before each claim. */
  runnableKinds?: () => readonly string[];
  /** Jobs run at once by this instance. */
  concurrency?: number;
  /** Lease of a claimed job (DEFAULT_LEASE_MS); extended every third of it while the job runs. */
  leaseMs?: number;
  /** Wait between claims when nothing was due. */
  pollMs?: number;
  retry?: RetryPolicy;
  log?: RunnerLog;
  /** Identifies this runner in `locked_by` (tests name their consumers). */
  id?: string;
  /**
   * A job this runner ran has ended: `done`, `retry` (queued again after a failed attempt) or
   * `failed` (for good). Not called for a job handed back because the runner stops. (/metrics)
   */
  onFinished?: (kind: string, outcome: 'done' | 'retry' | 'failed', seconds: number, job: MediaJobRow) => void;
}

export interface Runner {
  readonly id: string;
  /** Claims at once instead of waiting for the next poll (called after enqueueing). */
  wake(): void;
  /** Stops claiming, aborts running jobs and hands them back to the queue. */
  stop(): Promise<void>;
  /**
   * Resolves when nothing is running and a claim begun after this call (and after the last job
   * ended) found nothing due (tests).
   */
  idle(): Promise<void>;
}

/**
 * A claimed job's lease: renewed every 5 s while its instance lives, so a job whose instance died
 * (kill -9, a lost machine) is free again at most 15 s after its last renewal and is taken by the
 * next claim of another instance (every 2 s): within 20 s (issue 32; it was 60 s, ~72 s measured).
 * Three renewals in a row must fail before a living instance loses a job it runs.
 */
export const DEFAULT_LEASE_MS = 15_000;

const silent: RunnerLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Runs jobs of the queue with `handlers` until stopped. */
export function startRunner(options: RunnerOptions): Runner {
  const queue = jobQueue(options.db);
  const id = options.id ?? workerId();
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const pollMs = options.pollMs ?? 2_000;
  const retry = options.retry ?? DEFAULT_RETRY;
  const log = options.log ?? silent;
  const kinds = () => (options.runnableKinds ? options.runnableKinds() : Object.keys(options.handlers)).filter((kind) => kind in options.handlers);

  let stopped = false;
  const running = new Map<number, AbortController>();
  let wakeUp: (() => void) | null = null;
  /** A wake asked for while no sleep was pending: the next sleep ends at once. */
  let wakePending = false;
  /**
   * Callers of idle(), each with the number of claims begun before it asked (or before a job
   * ended since): only a later claim that finds nothing can say the queue is idle. A claim
   * already under way when jobs were enqueued may not see them (found in a run where idle()
   * resolved with the jobs still queued).
   */
  let idleWaiters: { resolve: () => void; after: number }[] = [];
  let claimsBegun = 0;
  let lastEmptyClaim = 0;
  /** The last claim found the database unavailable (warned once). */
  let databaseAway = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (wakePending) {
        wakePending = false;
        return resolve();
      }
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        if (wakeUp === done) wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });

  const wake = () => {
    if (wakeUp) wakeUp();
    else wakePending = true;
  };

  const notifyIdle = () => {
    if (running.size > 0) return;
    const ready = idleWaiters.filter((waiter) => lastEmptyClaim > waiter.after);
    idleWaiters = idleWaiters.filter((waiter) => lastEmptyClaim <= waiter.after);
    ready.forEach((waiter) => waiter.resolve());
  };

  async function runOne(job: MediaJobRow): Promise<void> {
    const controller = new AbortController();
    running.set(job.id, controller);
    const beat = setInterval(
      () => {
        queue.heartbeat(job.id, id, leaseMs).then(
          (mine) => {
            if (!mine) controller.abort(new Error('The lease of this job was lost.'));
          },
          (error: unknown) =>
            log.warn(
              isDatabaseUnavailable(error) ? { ...unavailableFields(error), jobId: job.id } : { err: error, jobId: job.id },
              'media job heartbeat failed',
            ),
        );
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    const started = Date.now();
    try {
      const handler = options.handlers[job.kind];
      if (!handler) throw new Error(`No handler for jobs of kind ${job.kind}.`);
      await handler({ job, signal: controller.signal });
      if (controller.signal.aborted) throw controller.signal.reason;
      await queue.complete(job.id, id);
      log.info({ jobId: job.id, kind: job.kind, ms: Date.now() - started }, 'media job done');
      options.onFinished?.(job.kind, 'done', (Date.now() - started) / 1000, job);
    } catch (error) {
      if (stopped) {
        await queue.release(job.id, id).catch(() => undefined);
      } else {
        const status = await queue.fail(job, id, error, retry).catch((failure: unknown) => {
          log.error({ err: failure, jobId: job.id }, 'media job failure could not be recorded');
          return 'unknown';
        });
        if (status !== 'unknown') options.onFinished?.(job.kind, status === 'failed' ? 'failed' : 'retry', (Date.now() - started) / 1000, job);
        const entry = { jobId: job.id, kind: job.kind, attempt: job.attempts, status, err: error };
        if (status === 'failed') log.error(entry, 'media job failed');
        else log.warn(entry, 'media job attempt failed; retrying later');
      }
    } finally {
      clearInterval(beat);
      running.delete(job.id);
    }
  }

  async function loop(): Promise<void> {
    while (!stopped) {
      if (running.size >= concurrency) {
        await sleep(pollMs);
        continue;
      }
      let job: MediaJobRow | null = null;
      const claim = (claimsBegun += 1);
      try {
        await queue.reapExpired(retry);
        job = await queue.claim(id, kinds(), leaseMs);
        if (databaseAway) log.info({}, 'media queue: the database answers again');
        databaseAway = false;
      } catch (error) {
        // An outage: one warning until the database answers again, not an error every poll.
        if (!isDatabaseUnavailable(error)) log.error({ err: error }, 'media queue claim failed');
        else if (!databaseAway) {
          log.warn(unavailableFields(error), 'media queue: the database is unavailable; claiming again every poll');
          databaseAway = true;
        }
      }
      if (stopped) {
        if (job) await queue.release(job.id, id).catch(() => undefined);
        break;
      }
      if (job) {
        void runOne(job).then(() => {
          // What the job enqueued may be missed by a claim begun before it ended.
          for (const waiter of idleWaiters) waiter.after = claimsBegun;
          wake();
        });
        continue;
      }
      lastEmptyClaim = claim;
      notifyIdle();
      await sleep(pollMs);
    }
  }

  const done = loop();

  return {
    id,
    wake,
    async stop() {
      stopped = true;
      wake();
      for (const controller of running.values()) controller.abort(new Error('The server is stopping.'));
      await done;
      while (running.size > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    },
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push({ resolve, after: claimsBegun });
        wake();
      }),
  };
}
