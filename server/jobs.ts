import type { FastifyInstance } from 'fastify';
import { completeClosedReviews } from './services/review-auto-complete.ts';

const MINUTE = 60_000;

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
  return () => clearInterval(timer);
}
