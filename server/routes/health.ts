import type { FastifyInstance } from 'fastify';
import * as operations from '../../src/domain/contract/service.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../http-error.ts';
import { route } from './operation-route.ts';

export default async function healthRoute(app: FastifyInstance) {
  // Liveness: the process can answer (its event loop turns). It reads nothing, the database
  // least of all: a database outage takes instances out of rotation (/ready), it must not get
  // every one of them restarted.
  route(app, operations.getHealth, async (_, _request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { status: 'ok' as const };
  });

  // Readiness: send this instance traffic (503 while starting, while the database or the store
  // does not answer, when stopping), with Retry-After on a 503.
  route(app, operations.getReadiness, async (_, _request, reply) => {
    const readiness = await app.readiness.check();
    reply.header('Cache-Control', 'no-store');
    if (readiness.status === 'ready') return readiness;
    return reply.code(503).header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS)).send(readiness);
  });
}
