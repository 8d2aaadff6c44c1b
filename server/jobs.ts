import type { FastifyInstance } from 'fastify';
import { completeClosedReviews } from './services/review-auto-complete.ts';
import { abortAbandonedUploads } from './services/uploads.ts';
import { sweepOrphanObjects } from './services/orphan-cleanup.ts';
import { serverStoreEndpoint } from './storage/setup.ts';
import { billingNotices } from './billing/notices.ts';
import { runBillingRenewals } from './billing/renewals.ts';
import { createPaymentProvider } from './billing/setup.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Periodic work of this instance; each job is safe to run on every instance at once. Started by
 * the jobs plugin (server/plugins/jobs.ts) once the server listens and storage is connected;
 * returns a stop function that clears the timers and waits for a run in progress to end, so shutdown
 * never closes the database under a job.
 */
export function startBackgroundJobs(app: FastifyInstance): () => Promise<void> {
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  const track = (job: () => Promise<void>) => () => {
    if (stopped) return;
    const run = job().finally(() => inFlight.delete(run));
    inFlight.add(run);
  };

  const completeReviews = track(async () => {
    try {
      const completed = await completeClosedReviews(app.ctx.db);
      if (completed) app.log.info({ completed }, 'review windows closed: projects approved');
    } catch (error) {
      app.log.error({ err: error }, 'review auto-complete failed');
    }
  });
  completeReviews();
  const timer = setInterval(completeReviews, MINUTE);

  // Multipart uploads left for more than 7 days are aborted; expired upload reservations and
  // credentials are dropped. First run a minute after start, when storage is connected.
  const sweepUploads = track(async () => {
    try {
      const swept = await abortAbandonedUploads(app.ctx);
      if (swept.aborted || swept.reservations || swept.credentials) app.log.info(swept, 'abandoned uploads aborted, expired reservations and credentials removed');
    } catch (error) {
      app.log.error({ err: error }, 'abandoned upload sweep failed');
    }
    await sweepOrphanObjects(app.ctx, serverStoreEndpoint(app), app.log);
  });
  const firstSweep = setTimeout(sweepUploads, MINUTE);
  const sweeps = setInterval(sweepUploads, HOUR);

  // Rate-limit counters whose window has ended are only read as zero; dropping them keeps the
  // table as small as the traffic of one window.
  const sweepLimits = track(async () => {
    try {
      await app.ctx.limiter.sweep();
    } catch (error) {
      app.log.error({ err: error }, 'rate limit sweep failed');
    }
  });
  const limitSweeps = setInterval(sweepLimits, 5 * MINUTE);

  // Monthly credit grants, yearly charges with their retries, lapsed subscriptions: every
  // change is a conditional UPDATE, so all instances may run it (server/billing/renewals.ts).
  const billingProvider = createPaymentProvider(app.ctx.db, app.ctx.config.billing);
  const notices = billingNotices({ db: app.ctx.db, mailer: app.ctx.mailer, publicUrl: app.ctx.config.publicUrl, log: app.log });
  const renewBilling = track(async () => {
    try {
      const report = await runBillingRenewals(app.ctx.db, billingProvider, new Date(), { log: app.log, notices });
      if (Object.values(report).some((n) => n > 0)) app.log.info(report, 'billing renewals');
    } catch (error) {
      app.log.error({ err: error }, 'billing renewals failed');
    }
  });
  const firstRenewal = setTimeout(renewBilling, MINUTE);
  const renewals = setInterval(renewBilling, HOUR);

  return async () => {
    stopped = true;
    clearInterval(timer);
    clearTimeout(firstSweep);
    clearInterval(sweeps);
    clearInterval(limitSweeps);
    clearTimeout(firstRenewal);
    clearInterval(renewals);
    await Promise.allSettled([...inFlight]);
  };
}
