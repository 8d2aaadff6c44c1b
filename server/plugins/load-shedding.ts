import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import { BUSY_MESSAGE, HttpError } from '../http-error.ts';
import { EMBEDDED_S3_PREFIX } from '../storage/setup.ts';

const RETRY_AFTER_SECONDS = 10;
/** How often under-pressure reads the loop's delay (its default, said here because the handler reasons on it). */
const SAMPLE_INTERVAL_MS = 1_000;

/**
 * Whether under-pressure's report is over the threshold set. It reports a loop that took no
 * sample in a whole interval (blocked at least that long) as an infinite delay; with a threshold
 * above the interval that is not known to be over it, so it does not shed
 * (MAX_EVENT_LOOP_DELAY_MS means what it says: a bench that sets a minute is not shed after a second).
 */
export function isOverThreshold(type: string, value: number | undefined, maxEventLoopDelayMs: number): boolean {
  return !(type === 'eventLoopDelay' && value === Infinity && maxEventLoopDelayMs > SAMPLE_INTERVAL_MS);
}

/**
 * When the event loop is saturated (its delay averaged over a second passes `maxEventLoopDelayMs`),
 * new requests to the app answer 503 with Retry-After and a plain message at once, instead of
 * queueing behind the backlog until every client times out. The threshold is far above what
 * normal load (tests included: their embedded PGlite runs in this loop) ever reaches; `npm start`
 * runs PGlite on a thread of its own, with its own bounded queue (server/db/pglite-bridge.ts). The
 * object store at /s3 is not shed here: an upload in progress is worth more than a new page request,
 * and S3 clients have their own retry on the store's own SlowDown answers.
 */
export async function registerLoadShedding(app: FastifyInstance, options: { maxEventLoopDelayMs?: number } = {}): Promise<void> {
  const maxEventLoopDelay = options.maxEventLoopDelayMs ?? 1_000;
  await app.register(underPressure, {
    maxEventLoopDelay,
    sampleInterval: SAMPLE_INTERVAL_MS,
    retryAfter: RETRY_AFTER_SECONDS,
    // A rejection goes to the app's error handler, which answers the HttpError's JSON body.
    pressureHandler: async (request, reply, type, value) => {
      if (!isOverThreshold(type, value, maxEventLoopDelay)) return;
      // Nor /metrics: an overloaded instance is exactly when its figures are wanted.
      if (request.url.startsWith(`${EMBEDDED_S3_PREFIX}/`) || request.url === '/metrics') return;
      reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
      throw new HttpError(503, BUSY_MESSAGE);
    },
  });
}
