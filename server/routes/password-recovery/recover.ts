import type { FastifyInstance } from 'fastify';
import { RecoverBodyStruct, RecoverCompleteBodyStruct } from '../../../src/domain/contract/auth.ts';
import { parse } from '../../http-error.ts';
import { limitPerAccountAndIp, perIpRouteLimit } from '../../services/abuse-guard.ts';
import { completeRecovery, sendRecoveryMail } from '../../services/password-recovery.ts';

export default async function passwordRecoveryRoutes(app: FastifyInstance) {
  const limit = { config: { ...perIpRouteLimit(app.ctx.config), access: 'public' as const } };

  // Always 204, whether or not the e-mail has an account, so nothing about accounts leaks:
  // neither the answer nor its timing (the lookup and the mail happen after answering).
  app.put('/password-recover', limit, async (request, reply) => {
    const { email } = parse(RecoverBodyStruct, request.body);
    await limitPerAccountAndIp(app.ctx, request.ip, 'recover', email);
    app.background.run('recovery mail', () => sendRecoveryMail(app.ctx, app.log, email));
    reply.code(204);
  });

  // Completes a recovery or an invitation: both links lead to /change-password.
  app.put('/password-recover-complete', limit, async (request) => {
    const body = parse(RecoverCompleteBodyStruct, request.body);
    return completeRecovery(app.ctx, request.ip, body);
  });
}
