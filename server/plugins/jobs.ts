import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { startBackgroundJobs } from '../jobs.ts';
import { mediaConcurrency, startMediaWorker } from '../media/worker.ts';
import { connectStorage } from '../storage/setup.ts';

/**
 * This instance's background work: the periodic jobs (server/jobs.ts) and the media worker
 * (server/media/worker.ts). Registered only by `buildApp({ jobs: true })` (`npm start`; tests and
 * benchmarks leave it out). They start once the server listens and its object store is
 * connected (the media jobs read and write objects), and stop before the server closes
 * (preClose): a run in progress ends, running media jobs are handed back to the queue, all
 * before storage and the database close (their plugins close on onClose, after preClose).
 */
export const jobsPlugin = fp(
  async function jobsPlugin(app: FastifyInstance) {
    // Read now, so a wrong MEDIA_CONCURRENCY stops the start instead of being logged after listen.
    const concurrency = mediaConcurrency();
    const stops: (() => Promise<void>)[] = [];
    let closing = false;
    app.addHook('onListen', async () => {
      try {
        await connectStorage(app);
      } catch {
        app.log.warn('background jobs not started: object storage is not connected');
        return;
      }
      // A shutdown that came while the store was connecting: nothing to start.
      if (closing) return;
      stops.push(startBackgroundJobs(app));
      stops.push(startMediaWorker(app, concurrency));
    });
    app.addHook('preClose', async () => {
      closing = true;
      // In the order main.ts used: the periodic jobs, then the media worker.
      for (const stop of stops) await stop();
    });
  },
  { name: 'cutdesk-jobs', dependencies: ['cutdesk-db', 'cutdesk-storage', 'cutdesk-mail'], decorators: { fastify: ['ctx'] } },
);
