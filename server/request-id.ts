import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** The header a request id comes in (from a balancer or another instance) and goes back out in. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What an incoming id may look like: short, and nothing a log reader or a terminal could trip on. */
const SANE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Fastify's `genReqId`: the caller's X-Request-Id when it is a sane token (so one request can be
 * followed through a balancer and across instances), otherwise a new UUID. Anything else (too
 * long, spaces, control characters, a comma-joined list) is replaced, never logged as sent.
 */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SANE_ID.test(given) ? given : randomUUID();
}

/**
 * Sends the request's id back (X-Request-Id) on every answer, the object store's and the event
 * streams' included (set first, so a hijacked reply keeps it): whoever reports a problem can
 * name the request, and the log lines carrying that `reqId` are found at once.
 */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}
