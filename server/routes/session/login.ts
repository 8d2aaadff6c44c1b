import type { FastifyInstance } from 'fastify';
import { LoginBodyStruct } from '../../../src/domain/contract/auth.ts';
import { parse } from '../../http-error.ts';
import { perIpRouteLimit } from '../../services/abuse-guard.ts';
import { signIn } from '../../services/sign-in.ts';

export default async function loginRoute(app: FastifyInstance) {
  app.post('/login', { config: { ...perIpRouteLimit(app.ctx.config), access: 'public' } }, async (request) => {
    const body = parse(LoginBodyStruct, request.body);
    return signIn(app.ctx, request.ip, body);
  });
}
