import type { FastifyInstance } from 'fastify';
import { RegisterBodyStruct } from '../../../src/domain/contract/auth.ts';
import { parse } from '../../http-error.ts';
import { perIpRouteLimit } from '../../services/abuse-guard.ts';
import { registerOwner } from '../../services/sign-in.ts';

export default async function registerRoute(app: FastifyInstance) {
  // Registration is limited per address (the flood guard) and by the bot check; there is no
  // secret to guess, so no per-account counter.
  app.post('/register', { config: { ...perIpRouteLimit(app.ctx.config), access: 'public' } }, async (request, reply) => {
    const body = parse(RegisterBodyStruct, request.body);
    const session = await registerOwner(app.ctx, body);
    reply.code(201);
    return session;
  });
}
