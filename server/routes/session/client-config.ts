import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/auth.ts';
import type { ClientConfig } from '../../../src/domain/contract/auth.ts';
import { route } from '../operation-route.ts';

/** What the web app needs before sign-in: public values only (a site key is public by design). */
export default async function clientConfigRoute(app: FastifyInstance) {
  const { billing } = app.ctx.config;
  const answer: ClientConfig = {
    recaptchaSiteKey: app.ctx.config.recaptchaSiteKey,
    payments: { provider: billing.provider, publishableKey: billing.publishableKey },
  };
  route(app, operations.getClientConfig, async (_, _request, reply) => {
    // Changes only with a restart; a short cache spares a call on every sign-in page.
    reply.header('Cache-Control', 'public, max-age=300');
    return answer;
  });
}
