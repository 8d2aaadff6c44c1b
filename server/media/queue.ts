import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
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
 * error stays on the row, so a failed job is visible with its reason. The statements are in
 * server/repositories/media-jobs.ts; this module holds the policy (back-off, what fails at once).
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
