import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

export default async function healthRoute(app: FastifyInstance) {
  app.get('/health', async () => {
    await sql`select 1`.execute(app.ctx.db);
    return { status: 'ok' };
  });
}
