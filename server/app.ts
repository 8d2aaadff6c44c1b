import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { MESSAGES } from '../src/domain/messages.ts';
import { PRERENDERED_PAGES } from '../src/domain/prerendered-pages.ts';
import type { Config } from './config.ts';
import { contextOf } from './context.ts';
import type { Db } from './db/connect.ts';
import { DatabaseUnavailable, HttpError, StorageFull } from './http-error.ts';
import { isDiskFull } from './storage/disk-full.ts';
import { isDatabaseUnavailable, unavailableFields } from './db/errors.ts';
import { BROTLI_QUALITY, COMPRESS_JSON_FROM_BYTES } from './prepared-answer.ts';
import { closeIdleConnectionsUntilClosed } from './idle-connections.ts';
import healthRoute from './routes/health.ts';
import organizationRoutes from './routes/organizations/create-and-read.ts';
import organizationManagementRoutes from './routes/organizations/management.ts';
import businessCalendarRoutes from './routes/business-calendar/index.ts';
import passwordRecoveryRoutes from './routes/password-recovery/recover.ts';
import dashboardRoute from './routes/projects/list-dashboard.ts';
import projectReadRoutes from './routes/projects/read.ts';
import projectTransitionRoutes from './routes/projects/transitions.ts';
import projectWriteRoutes from './routes/projects/write.ts';
import registerRoute from './routes/registration/register.ts';
import loginRoute from './routes/session/login.ts';
import meRoutes from './routes/session/me.ts';
import scoreRoute from './routes/session/score.ts';
import clientConfigRoute from './routes/session/client-config.ts';
import userRoutes from './routes/users/index.ts';
import { localBotCheck, recaptchaBotCheck } from './services/bot-check.ts';
import { RateLimiter } from './services/rate-limiter.ts';
import { TooManyRequests } from './services/abuse-guard.ts';
import { registerBackground } from './background.ts';
import { requestSerializer } from './log-redaction.ts';
import { authPlugin } from './plugins/auth.ts';
import { dbPlugin } from './plugins/db.ts';
import { eventsPlugin } from './plugins/events.ts';
import { rememberedRowsPlugin } from './plugins/remembered-rows.ts';
import { jobsPlugin } from './plugins/jobs.ts';
import { mailPlugin } from './plugins/mail.ts';
import { storagePlugin } from './plugins/storage.ts';
import { registerBadInputGuards } from './plugins/bad-input.ts';
import { registerLoadShedding } from './plugins/load-shedding.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { readinessPlugin } from './plugins/readiness.ts';
import { registerRequestId, requestIdOf } from './request-id.ts';
import { prettyLogStream } from './log-format.ts';
import { createTokenService } from './services/tokens.ts';
import assetRoutes from './routes/uploads/assets.ts';
import uploadCredentialRoutes from './routes/uploads/credentials.ts';
import mediaRoutes from './routes/media/index.ts';
import billingRoutes from './routes/billing/index.ts';
import reviewRoutes from './routes/review/index.ts';
import apiReferenceRoutes from './routes/api-reference.ts';
import eventRoutes from './routes/events/index.ts';
import notificationRoutes from './routes/notifications/index.ts';
import shareLinkRoutes from './routes/share-links/index.ts';
import backupRoute from './routes/ops/backup.ts';
import { mediaLinksHook } from './media/media-links.ts';

export const API_PREFIX = '/api/v1';

export interface AppDeps {
  config: Config;
  /**
   * A database the caller opened, migrated and closes itself (`npm start`, which opens it while
   * the server's modules load; tests, benchmarks). Without it the db plugin opens the configured
   * one, migrates it and closes it with the app.
   */
  db?: Db;
  /**
   * Run this instance's background jobs and media worker once the server listens (`npm start`).
   * Off by default: tests and benchmarks build apps that must not start them.
   */
  jobs?: boolean;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: NodeJS.WritableStream;
}

/**
 * Timeouts of the HTTP server. A whole request (headers and body) must arrive within
 * `requestTimeout`: generous, because /s3 receives upload parts of 20 MiB and more from slow
 * links (20 MiB at 100 kbit/s is 28 minutes); stalled clients are cut sooner by the idle
 * timeout (no byte in either direction for `connectionTimeout`) and Node's 60 s limit on
 * headers. Idle keep-alive connections are kept a little longer than the usual load balancer's
 * 60 s, so the balancer, not this server, closes them (no request lost on a closing socket).
 */
export const SERVER_TIMEOUTS = {
  requestTimeout: 30 * 60_000,
  connectionTimeout: 2 * 60_000,
  keepAliveTimeout: 65_000,
} as const;

/**
 * The whole server as a Fastify instance, without listening (tests use inject). Its parts are
 * plugins (server/plugins/), registered in dependency order: db, storage, mail, then jobs; the
 * server's close runs their hooks the other way round (jobs stop on preClose, then storage's
 * clients and the database close on onClose), see main.ts's shutdown.
 */
export async function buildApp({ config, db, jobs = false, logStream }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // Request logs carry the URL with its secret query values redacted (server/log-redaction.ts).
    // Each line carries `reqId`: the caller's sane X-Request-Id or a new one, sent back (server/request-id.ts).
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            serializers: { req: requestSerializer },
            stream: logStream ?? (config.logFormat === 'pretty' ? prettyLogStream() : undefined),
          },
    genReqId: requestIdOf,
    // Forwarded headers are believed only from the proxies TRUST_PROXY names (none by default):
    // request.ip feeds the per-address limits and request.host/protocol the links we hand out.
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1_048_576,
    ...SERVER_TIMEOUTS,
  });
  // A download under way when the server starts closing must not hold it for the keep-alive timeout.
  app.addHook('preClose', (done) => {
    if (app.server.listening) closeIdleConnectionsUntilClosed(app.server);
    done();
  });
  // First: every other part reads or writes the database, and it closes last.
  await app.register(dbPlugin, { config, db });
  // Before the routes, so its hook measures every one of them (GET /metrics).
  await app.register(metricsPlugin, { config });
  registerRequestId(app);
  const limiter = new RateLimiter(app.db, config.rateLimit.windowMs);
  registerBackground(app);
  // Security headers on every answer but the object store's (/s3 keeps its own).
  await registerSecurityHeaders(app, config);
  await registerLoadShedding(app, { maxEventLoopDelayMs: config.maxEventLoopDelayMs });
  // Per-route limits only (routes opt in with config.rateLimit); counted in the database.
  await app.register(rateLimit, {
    global: false,
    store: limiter.pluginStore(app.log),
    skipOnError: true,
    errorResponseBuilder: (_request, context) => new TooManyRequests(context.ttl / 1000),
  });
  // The embedded S3 endpoint (/s3) keeps its own body handling, CORS and errors, apart from the API.
  await app.register(storagePlugin, { config });
  await app.register(mailPlugin, { config });
  await app.register(readinessPlugin);
  const ctx = contextOf(app, {
    config,
    tokens: createTokenService(config.jwtSecret),
    botCheck: config.recaptchaSecret ? recaptchaBotCheck(config.recaptchaSecret, config.recaptchaVerifyUrl) : localBotCheck,
    limiter,
  });
  app.decorate('ctx', ctx);
  app.setErrorHandler(handleError);
  if (jobs) await app.register(jobsPlugin);
  // Live updates: this instance's LISTEN connection and open event streams (closed on shutdown).
  await app.register(eventsPlugin, { config });
  // The session's user and the board's version in memory, dropped when the database says they changed.
  await app.register(rememberedRowsPlugin, { config });

  await app.register(
    async (api) => {
      registerBadInputGuards(api);
      // Large JSON answers leave compressed (issue 14); nothing else (event streams, downloads,
      // redirects), and request bodies are read as sent (no decompression: the body limits hold).
      await api.register(compress, {
        threshold: COMPRESS_JSON_FROM_BYTES,
        encodings: ['br', 'gzip'],
        customTypes: /^application\/json(;|$)/,
        brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
        globalDecompression: false,
      });
      await api.register(authPlugin);
      // Projects leave with media links (signed app URLs) instead of object keys.
      api.addHook('preSerialization', mediaLinksHook(ctx, API_PREFIX));
      const routeModules = [
        healthRoute,
        loginRoute,
        meRoutes,
        scoreRoute,
        clientConfigRoute,
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
        billingRoutes,
        reviewRoutes,
        eventRoutes,
        notificationRoutes,
        businessCalendarRoutes,
        shareLinkRoutes,
        backupRoute,
        apiReferenceRoutes,
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

/**
 * Fastify's option for TRUST_PROXY. A hop count is turned into "the nearest N hops are proxies"
 * here: Fastify itself trusts no hop for a bare number. With a count the operator asserts that
 * clients cannot reach this server except through those N proxies (docs/operations.md).
 */
function trustProxyOption(trust: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

function handleError(error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) {
  // A 429 (TooManyRequests), a full database queue (DatabaseBusy, 503) or a database that does
  // not answer (DatabaseUnavailable, 503) says when to try again.
  if (error instanceof HttpError && 'retryAfterSeconds' in error) reply.header('Retry-After', String(error.retryAfterSeconds));
  if (error instanceof HttpError) return reply.code(error.statusCode).send(error.body);
  // Malformed JSON, wrong content type, body too large: the client's fault, said plainly.
  const status = (error as FastifyError).statusCode;
  if (status && status >= 400 && status < 500) return reply.code(status).send({ message: error.message });
  // Name, message and code only: a database error carries the statement's parameters (a
  // customer's address, an e-mail), which have no place in a log.
  const { name, message, stack } = error;
  const code = (error as { code?: unknown }).code;
  if (isDatabaseUnavailable(error)) {
    // An outage, a restart or a failover, not a fault of this request: one warning line, no stack
    // (every request fails the same way meanwhile), and a 503 the client may retry. Not under
    // `err`, whose serializer would add an empty stack and call the type "Object".
    request.log.warn(unavailableFields(error), 'database unavailable');
    return handleError(new DatabaseUnavailable(), request, reply);
  }
  if (isDiskFull(error)) {
    request.log.error({ dbError: { type: name, message, code } }, 'the disk is full: free space for the database or the data directory');
    return handleError(new StorageFull(), request, reply);
  }
  request.log.error({ err: { type: name, message, code, stack } }, 'unhandled error');
  return reply.code(500).send({ message: MESSAGES.generic });
}

/** The built PWA, with every unknown non-API path answered by index.html (client-side routes). */
async function serveWebApp(app: FastifyInstance, webDir: string): Promise<void> {
  const index = join(webDir, 'index.html');
  if (!existsSync(index)) {
    app.log.warn({ webDir }, 'no built web app found; serving the API only');
    // Not Fastify's default 404, which logs the URL as sent (with a link's code in it).
    app.setNotFoundHandler((_request, reply) => reply.code(404).send({ message: MESSAGES.notFound }));
    return;
  }
  await app.register(fastifyStatic, {
    root: webDir,
    // One `GET /*` route that looks the file up when asked (issue 14): a route per built file
    // (`wildcard: false`) globbed the folder and cost ≈ 50–70 ms of CPU at every start, and a
    // build swapped in under a running server is served whole. A path with no file falls through
    // to the not-found handler below (the shell), as before.
    wildcard: true,
    // The build holds brotli and gzip copies of its text files (scripts/compress-build.ts): sent
    // to browsers that accept them, with Vary: Accept-Encoding; the plain file otherwise.
    preCompressed: true,
    setHeaders(res, path) {
      // Hashed assets never change; the shell and the service worker must always be fresh.
      res.header('Cache-Control', path.includes(`${join(webDir, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // Issue 34: the sign-in pages as the build rendered them (the form painted from the HTML alone),
  // for their exact path with no query (a query can change what the page shows: the shell then).
  const prerendered = new Map(PRERENDERED_PAGES.filter((page) => existsSync(join(webDir, page.file))).map((page) => [page.path, page.file]));
  app.setNotFoundHandler((request, reply) => {
    // A built file that is not there (an old page asking for a chunk a new build replaced) is a
    // 404, not the shell: HTML in place of a script only fails later with a MIME-type error.
    // HEAD is answered like GET without the body (uptime checks and link checkers ask with it).
    const read = request.method === 'GET' || request.method === 'HEAD';
    if (!read || request.url.startsWith('/api/') || request.url.startsWith('/assets/')) return reply.code(404).send({ message: MESSAGES.notFound });
    return reply.header('Cache-Control', 'no-cache').sendFile(prerendered.get(request.url) ?? 'index.html');
  });
}
