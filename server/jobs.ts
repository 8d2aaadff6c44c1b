import type { FastifyInstance } from 'fastify';
import { completeClosedReviews } from './services/review-auto-complete.ts';
import { abortAbandonedUploads } from './services/uploads.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Periodic work of this instance; each job is safe to run on every instance at once. Returns a stop function. */
export function startBackgroundJobs(app: FastifyInstance): () => void {
  const run = async () => {
    try {
      const completed = await completeClosedReviews(app.ctx.db);
      if (completed) app.log.info({ completed }, 'review windows closed: projects approved');
    } catch (error) {
      app.log.error({ err: error }, 'review auto-complete failed');
    }
  };
  void run();
  const timer = setInterval(() => void run(), MINUTE);

  // Multipart uploads left for more than 7 days are aborted; expired upload reservations and
  // credentials are dropped. First run a minute after start, when storage is connected.
  const sweepUploads = async () => {
    try {
      const swept = await abortAbandonedUploads(app.ctx);
      if (swept.aborted || swept.reservations || swept.credentials) app.log.info(swept, 'abandoned uploads aborted, expired reservations and credentials removed');
    } catch (error) {
      app.log.error({ err: error }, 'abandoned upload sweep failed');
    }
  };
  const firstSweep = setTimeout(() => void sweepUploads(), MINUTE);
  const sweeps = setInterval(() => void sweepUploads(), HOUR);
  return () => {
    clearInterval(timer);
    clearTimeout(firstSweep);
    clearInterval(sweeps);
  };
}
