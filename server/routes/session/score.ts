import type { FastifyInstance } from 'fastify';
import { object, optional, string } from 'superstruct';
import { parse } from '../../http-error.ts';
import { perIpRouteLimit } from '../../services/abuse-guard.ts';

const ScoreQueryStruct = object({ token: optional(string()) });

export default async function scoreRoute(app: FastifyInstance) {
  app.get('/score', { config: { ...perIpRouteLimit(app.ctx.config), access: 'public' } }, async (request) => {
    const { token } = parse(ScoreQueryStruct, request.query);
    return { score: await app.ctx.botCheck.score(token ?? '') };
  });
}
