import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/auth.ts';
import { perIpRouteLimit } from '../../services/abuse-guard.ts';
import { signIn } from '../../services/sign-in.ts';
import { route } from '../operation-route.ts';

export default async function loginRoute(app: FastifyInstance) {
  route(app, operations.login, async ({ body }, request) => signIn(app.ctx, request.ip, body), { config: perIpRouteLimit(app.ctx.config) });
}
