import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http-error.ts';
import { EMBEDDED_S3_PREFIX } from '../storage/setup.ts';

export const BUSY_MESSAGE = 'The server is busy right now. Please try again in a few seconds.';
const RETRY_AFTER_SECONDS = 10;

/**
 * When the event loop is saturated (its delay averaged over a second passes `maxEventLoopDelayMs`),
 * new requests to the app answer 503 with Retry-After and a plain message at once, instead of
 * queueing behind the backlog until every client times out. The threshold is far above what
 * normal load (tests included: embedded PGlite runs in this loop) ever reaches. The object
 * store at /s3 is not shed here: an upload in progress is worth more than a new page request,
 * and S3 clients have their own retry on the store's own SlowDown answers.
 */
export async function registerLoadShedding(app: FastifyInstance, options: { maxEventLoopDelayMs?: number } = {}): Promise<void> {
  await app.register(underPressure, {
    maxEventLoopDelay: options.maxEventLoopDelayMs ?? 1_000,
    retryAfter: RETRY_AFTER_SECONDS,
    // A rejection goes to the app's error handler, which answers the HttpError's JSON body.
    pressureHandler: async (request, reply) => {
      // Nor /metrics: an overloaded instance is exactly when its figures are wanted.
      if (request.url.startsWith(`${EMBEDDED_S3_PREFIX}/`) || request.url === '/metrics') return;
      reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
      throw new HttpError(503, BUSY_MESSAGE);
    },
  });
}
