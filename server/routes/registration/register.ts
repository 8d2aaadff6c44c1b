import type { FastifyInstance } from 'fastify';
import { RegisterBodyStruct } from '../../../src/domain/contract/auth.ts';
import { MESSAGES } from '../../../src/domain/messages.ts';
import { conflict, parse } from '../../http-error.ts';
import { usersRepo } from '../../repositories/users.ts';
import { perIpRouteLimit, requireHuman } from '../../services/abuse-guard.ts';
import { hashSecret } from '../../services/passwords.ts';
import { isUniqueViolation } from '../../db/errors.ts';

export default async function registerRoute(app: FastifyInstance) {
  // Registration is limited per address (the flood guard) and by the bot check; there is no
  // secret to guess, so no per-account counter.
  app.post('/register', { config: perIpRouteLimit(app.ctx.config) }, async (request, reply) => {
    const body = parse(RegisterBodyStruct, request.body);
    await requireHuman(request, body.code);
    const users = usersRepo(app.ctx.db);
    const taken = () => conflict(MESSAGES.emailAlreadyRegistered, { fields: { email: MESSAGES.emailAlreadyRegistered } });
    if (await users.findByEmail(body.email)) throw taken();
    const user = await users
      .create({
        email: body.email,
        passwordHash: await hashSecret(body.password),
        firstName: body.firstName.trim(),
        lastName: body.lastName.trim(),
        phone: body.phone,
        role: 'OWNER',
        organizationId: null,
        profilePictureUrl: null,
        assetsPath: null,
        deletedAt: null,
      })
      .catch((error: unknown) => {
        // Two registrations racing for one e-mail: the unique index decides.
        throw isUniqueViolation(error) ? taken() : error;
      });
    reply.code(201);
    return { token: await app.ctx.tokens.sign({ userId: user.id, impersonatorId: null, sessionVersion: user.sessionVersion }), organizationId: null };
  });
}
