import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/auth.ts';
import { perIpRouteLimit } from '../../services/abuse-guard.ts';
import { registerOwner } from '../../services/sign-in.ts';
import { route } from '../operation-route.ts';

export default async function registerRoute(app: FastifyInstance) {
  // Registration is limited per address (the flood guard) and by the bot check; there is no
  // secret to guess, so no per-account counter.
  route(app, operations.register, async ({ body }) => registerOwner(app.ctx, body), { config: perIpRouteLimit(app.ctx.config) });
}
