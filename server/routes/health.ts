import type { FastifyInstance } from 'fastify';
import { pingDatabase } from '../repositories/health.ts';

export default async function healthRoute(app: FastifyInstance) {
  app.get('/health', { config: { access: 'public' } }, async () => {
    await pingDatabase(app.ctx.db);
    return { status: 'ok' };
  });
}
