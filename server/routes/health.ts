import type { FastifyInstance } from 'fastify';
import { pingDatabase } from '../repositories/health.ts';

export default async function healthRoute(app: FastifyInstance) {
  // Liveness: the process runs and its database answers (restart it when not).
  app.get('/health', { config: { access: 'public' } }, async () => {
    await pingDatabase(app.ctx.db);
    return { status: 'ok' };
  });

  // Readiness: send this instance traffic (503 while starting, when a part fails, when stopping).
  app.get('/ready', { config: { access: 'public' } }, async (_request, reply) => {
    const readiness = await app.readiness.check();
    reply.code(readiness.status === 'ready' ? 200 : 503).header('Cache-Control', 'no-store');
    return readiness;
  });
}
