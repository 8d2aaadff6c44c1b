import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/auth.ts';
import { limitPerAccountAndIp, perIpRouteLimit } from '../../services/abuse-guard.ts';
import { completeRecovery, sendRecoveryMail } from '../../services/password-recovery.ts';
import { route } from '../operation-route.ts';

export default async function passwordRecoveryRoutes(app: FastifyInstance) {
  const limit = { config: perIpRouteLimit(app.ctx.config) };

  // Always 204, whether or not the e-mail has an account, so nothing about accounts leaks:
  // neither the answer nor its timing (the lookup and the mail happen after answering).
  route(
    app,
    operations.recoverPassword,
    async ({ body: { email } }, request) => {
      await limitPerAccountAndIp(app.ctx, request.ip, 'recover', email);
      app.background.run('recovery mail', () => sendRecoveryMail(app.ctx, app.log, email));
    },
    limit,
  );

  // Completes a recovery or an invitation: both links lead to /change-password.
  route(app, operations.completeRecovery, async ({ body }, request) => completeRecovery(app.ctx, request.ip, body), limit);
}
