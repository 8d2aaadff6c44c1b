import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { MESSAGES } from '../src/domain/messages.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { Db } from './db/connect.ts';
import { HttpError } from './http-error.ts';
import healthRoute from './routes/health.ts';
import organizationRoutes from './routes/organizations/create-and-read.ts';
import organizationManagementRoutes from './routes/organizations/management.ts';
import passwordRecoveryRoutes from './routes/password-recovery/recover.ts';
import dashboardRoute from './routes/projects/list-dashboard.ts';
import projectReadRoutes from './routes/projects/read.ts';
import projectTransitionRoutes from './routes/projects/transitions.ts';
import projectWriteRoutes from './routes/projects/write.ts';
import registerRoute from './routes/registration/register.ts';
import loginRoute from './routes/session/login.ts';
import meRoutes from './routes/session/me.ts';
import scoreRoute from './routes/session/score.ts';
import userRoutes from './routes/users/index.ts';
import { localBotCheck, recaptchaBotCheck } from './services/bot-check.ts';
import { createMailer } from './services/mailer.ts';
import { RateLimiter } from './services/rate-limiter.ts';
import { createTokenService } from './services/tokens.ts';
import assetRoutes from './routes/uploads/assets.ts';
import uploadCredentialRoutes from './routes/uploads/credentials.ts';
import { closeStorage, registerStorage } from './storage/setup.ts';
import mediaRoutes from './routes/media/index.ts';
import { mediaLinksHook } from './media/media-links.ts';

export const API_PREFIX = '/api/v1';

export interface AppDeps {
  config: Config;
  db: Db;
}

/** The whole server as a Fastify instance, without listening (tests use inject). */
export async function buildApp({ config, db }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    trustProxy: true,
    bodyLimit: 1_048_576,
  });
  // The embedded S3 endpoint (/s3) keeps its own body handling, CORS and errors, apart from the API.
  const storageParts = await registerStorage(app, { storage: config.storage, dataDir: config.dataDir, db });
  const ctx: AppContext = {
    ...storageParts,
    config,
    db,
    tokens: createTokenService(config.jwtSecret),
    mailer: createMailer({ smtpUrl: config.smtpUrl, outboxDir: join(config.dataDir, 'outbox'), from: config.mailFrom, log: app.log }),
    botCheck: config.recaptchaSecret ? recaptchaBotCheck(config.recaptchaSecret) : localBotCheck,
    limiter: new RateLimiter(config.rateLimit.windowMs),
  };
  app.decorate('ctx', ctx);
  app.addHook('onClose', async () => closeStorage(app));
  app.setErrorHandler(handleError);

  await app.register(
    async (api) => {
      // Projects leave with media links (signed app URLs) instead of object keys.
      api.addHook('preSerialization', mediaLinksHook(ctx, API_PREFIX));
      const routeModules = [
        healthRoute,
        loginRoute,
        meRoutes,
        scoreRoute,
        registerRoute,
        passwordRecoveryRoutes,
        organizationRoutes,
        organizationManagementRoutes,
        userRoutes,
        dashboardRoute,
        projectReadRoutes,
        projectWriteRoutes,
        projectTransitionRoutes,
        uploadCredentialRoutes,
        assetRoutes,
        mediaRoutes,
      ];
      for (const routes of routeModules) {
        await api.register(routes);
      }
      api.setNotFoundHandler((_request, reply) => reply.code(404).send({ message: MESSAGES.notFound }));
    },
    { prefix: API_PREFIX },
  );
  await serveWebApp(app, config.webDir);
  return app;
}

function handleError(error: FastifyError | HttpError, request: { log: FastifyInstance['log'] }, reply: { code: (n: number) => { send: (b: unknown) => unknown } }) {
  if (error instanceof HttpError) return reply.code(error.statusCode).send(error.body);
  // Malformed JSON, wrong content type, body too large: the client's fault, said plainly.
  const status = (error as FastifyError).statusCode;
  if (status && status >= 400 && status < 500) return reply.code(status).send({ message: error.message });
  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).send({ message: MESSAGES.generic });
}

/** The built PWA, with every unknown non-API path answered by index.html (client-side routes). */
async function serveWebApp(app: FastifyInstance, webDir: string): Promise<void> {
  const index = join(webDir, 'index.html');
  if (!existsSync(index)) {
    app.log.warn({ webDir }, 'no built web app found; serving the API only');
    return;
  }
  await app.register(fastifyStatic, {
    root: webDir,
    wildcard: false,
    setHeaders(res, path) {
      // Hashed assets never change; the shell and the service worker must always be fresh.
      res.header('Cache-Control', path.includes(`${join(webDir, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.setNotFoundHandler((request, reply) => {
    if (request.method !== 'GET' || request.url.startsWith('/api/')) return reply.code(404).send({ message: MESSAGES.notFound });
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });
}
