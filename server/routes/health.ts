import type { FastifyInstance } from 'fastify';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../http-error.ts';

export default async function healthRoute(app: FastifyInstance) {
  // Liveness: the process can answer (its event loop turns). It reads nothing, the database
  // least of all: a database outage takes instances out of rotation (/ready), it must not get
  // every one of them restarted.
  app.get('/health', { config: { access: 'public' } }, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { status: 'ok' };
  });

  // Readiness: send this instance traffic (503 while starting, while the database or the store
  // does not answer, when stopping), with Retry-After on a 503.
  app.get('/ready', { config: { access: 'public' } }, async (_request, reply) => {
    const readiness = await app.readiness.check();
    reply.header('Cache-Control', 'no-store');
    if (readiness.status === 'ready') return readiness;
    return reply.code(503).header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS)).send(readiness);
  });
}
