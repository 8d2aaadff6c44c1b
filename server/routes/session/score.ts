import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/auth.ts';
import { perIpRouteLimit } from '../../services/abuse-guard.ts';
import { route } from '../operation-route.ts';

export default async function scoreRoute(app: FastifyInstance) {
  route(app, operations.score, async ({ query }) => ({ score: await app.ctx.botCheck.score(query.token) }), { config: perIpRouteLimit(app.ctx.config) });
}
