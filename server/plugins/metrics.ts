import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { MESSAGES } from '../../src/domain/messages.ts';
import type { Config } from '../config.ts';
import { embeddedPglite, postgresPool } from '../db/connect.ts';
import { metricsAccess } from '../metrics/access.ts';
import { createMetrics, type Metrics } from '../metrics/instruments.ts';
import { ALL_KINDS } from '../media/pipeline.ts';
import { MEDIA_JOB_STATES, mediaJobCounts } from '../repositories/metrics.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's Prometheus instruments (GET /metrics). */
    metrics: Metrics;
  }
}

/** Outside /api/v1: Prometheus' default path, and no API client ever calls it. */
export const METRICS_PATH = '/metrics';
const TOKEN_REQUIRED = 'A valid metrics token is required.';

export interface MetricsPluginOptions {
  config: Pick<Config, 'metricsToken' | 'trustProxy'>;
}

/**
 * The route label of a request: its pattern for the API and the object store
 * (`/api/v1/projects/:id`, never the URL with ids or tokens in it), one label for the built web
 * app's files (each is a route of its own) and one for what matched no route, so the number of
 * series stays bounded whatever clients send.
 */
function routeLabel(url: string | undefined): string {
  if (url === undefined) return 'unmatched';
  if (url.startsWith('/api/') || url.startsWith('/s3')) return url;
  return 'static';
}

/**
 * GET /metrics in Prometheus' text format: requests and their latency per route and status
 * (one onResponse hook), the periodic jobs and upload registrations (recorded by their code
 * through `app.metrics`), and at scrape time the media job queue, open event streams and the
 * database's connections. Readable from loopback, or with `METRICS_TOKEN` as a bearer from
 * elsewhere (server/metrics/access.ts). Registered early, so its hook sees every route.
 */
export const metricsPlugin = fp(
  async function metricsPlugin(app: FastifyInstance, { config }: MetricsPluginOptions) {
    const metrics = createMetrics();
    app.decorate('metrics', metrics);

    // A callback hook, not an async one: no promise per request on the hot path (bench/edges.ts).
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url;
      // The scrape itself is left out: it would only measure how often Prometheus comes.
      if (route !== METRICS_PATH) metrics.request(request.method, routeLabel(route), reply.statusCode, reply.elapsedTime / 1000);
      done();
    });

    const failedRead = (what: string) => (error: unknown) => app.log.warn({ err: error }, `metrics: ${what} could not be read`);
    metrics.gaugeOnScrape(
      'cutdesk_media_jobs',
      'Media jobs of every instance (one queue in the database) by kind and status: queued (the queue depth), running, failed',
      ['kind', 'status'],
      async (set) => {
        const rows = await mediaJobCounts(app.db).catch(failedRead('media jobs'));
        if (!rows) return;
        // Every kind and status is reported, 0 when none: an empty queue is a figure, not a gap.
        for (const kind of ALL_KINDS) for (const status of MEDIA_JOB_STATES) set({ kind, status }, 0);
        for (const row of rows) set({ kind: row.kind, status: row.status }, row.count);
      },
    );
    metrics.gaugeOnScrape('cutdesk_sse_connections', 'Live-update event streams open on this instance', [], (set) => {
      set({}, app.hasDecorator('events') ? app.events.size : 0);
    });
    // Issue 34: while the changes listener is away every request reads its user and the board's
    // version again (correct, but each costs two statements): an operator alerts on 0.
    metrics.gaugeOnScrape(
      'cutdesk_remembered_rows_listening',
      "1 while this instance hears the database's change notices and answers sessions and the board's version from memory; 0 while every request reads them",
      [],
      (set) => set({}, app.hasDecorator('remembered') && app.remembered.isListening ? 1 : 0),
    );
    metrics.gaugeOnScrape('cutdesk_remembered_users', 'User rows this instance answers sessions from without reading them', [], (set) => {
      set({}, app.hasDecorator('remembered') ? app.remembered.size.users : 0);
    });
    // PostgreSQL: pg's pool counters. Embedded PGlite is one in-process connection that
    // serializes statements, so only its size (1) is reported: "in use" would say nothing.
    metrics.gaugeOnScrape(
      'cutdesk_db_connections',
      'PostgreSQL connections of this instance by state (in_use, idle); none with embedded PGlite',
      ['state'],
      (set) => {
        const pool = postgresPool(app.db);
        if (!pool) return;
        set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
        set({ state: 'idle' }, pool.idleCount);
      },
    );
    metrics.gaugeOnScrape(
      'cutdesk_db_waiting',
      'Queries of this instance waiting for a free PostgreSQL connection, or for embedded PGlite on its thread',
      [],
      (set) => {
        const pool = postgresPool(app.db);
        if (pool) set({}, pool.waitingCount);
        const waiting = embeddedPglite(app.db)?.waiting;
        if (waiting !== undefined) set({}, waiting);
      },
    );
    metrics.gaugeOnScrape('cutdesk_db_connections_max', 'Most database connections this instance opens (1: embedded PGlite)', [], (set) => {
      set({}, postgresPool(app.db)?.options.max ?? 1);
    });

    app.get(METRICS_PATH, { config: { access: 'public' }, logLevel: 'warn' }, async (request: FastifyRequest, reply: FastifyReply) => {
      const access = metricsAccess(
        {
          socketAddress: request.socket.remoteAddress,
          clientAddress: request.ip,
          trustsProxies: config.trustProxy !== false,
          forwarded: request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined || request.headers['x-real-ip'] !== undefined,
          authorization: request.headers.authorization,
        },
        config.metricsToken,
      );
      if (access === 'not-found') return reply.code(404).send({ message: MESSAGES.notFound });
      if (access === 'unauthorized') return reply.code(401).header('WWW-Authenticate', 'Bearer realm="metrics"').send({ message: TOKEN_REQUIRED });
      reply.header('Content-Type', metrics.registry.contentType).header('Cache-Control', 'no-store');
      return metrics.registry.metrics();
    });
  },
  { name: 'cutdesk-metrics', dependencies: ['cutdesk-db'] },
);
