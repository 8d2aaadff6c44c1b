import type { FastifyInstance } from 'fastify';
import { isDatabaseUnavailable, unavailableFields } from './db/errors.ts';
import { completeClosedReviews } from './services/review-auto-complete.ts';
import { sendCommentDigests, sendReviewReminders } from './services/review-notifications.ts';
import { abortAbandonedUploads } from './services/uploads.ts';
import { serverStoreEndpoint } from './storage/setup.ts';
import { billingNotices } from './billing/notices.ts';
import { runBillingRenewals } from './billing/renewals.ts';
import { createPaymentProviders } from './billing/setup.ts';

const HOUR = 3_600_000;

/**
 * Periodic work of this instance; each job is safe to run on every instance at once. Started by
 * the jobs plugin (server/plugins/jobs.ts) once the server listens and storage is connected;
 * returns a stop function that clears the timers and waits for a run in progress to end, so shutdown
 * never closes the database under a job.
 */
export function startBackgroundJobs(app: FastifyInstance): () => Promise<void> {
  // A minute, unless JOB_PERIOD_MS says otherwise (server/config.ts).
  const period = app.ctx.config.jobPeriodMs;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  // A failed run is logged with `failure` and counted (/metrics: runs by job and outcome).
  const track = (name: string, failure: string, job: () => Promise<void>) => () => {
    if (stopped) return;
    const finished = app.metrics.jobStarted(name);
    const run = job()
      .then(
        () => finished('ok'),
        (error: unknown) => {
          finished('failed');
          // An outage fails every run the same way until it ends: a warning, no stack.
          if (isDatabaseUnavailable(error)) app.log.warn(unavailableFields(error), `${failure}: the database is unavailable; the next run tries again`);
          else app.log.error({ err: error }, failure);
        },
      )
      .finally(() => inFlight.delete(run));
    inFlight.add(run);
  };

  const completeReviews = track('review-auto-complete', 'review auto-complete failed', async () => {
    const completed = await completeClosedReviews(app.ctx.db);
    if (completed) app.log.info({ completed }, 'review windows closed: projects approved');
  });
  completeReviews();
  const timer = setInterval(completeReviews, period);

  // Multipart uploads left for more than 7 days are aborted; expired upload reservations and
  // credentials are dropped. First run a minute after start, when storage is connected.
  const sweepUploads = track('upload-sweep', 'abandoned upload sweep failed', async () => {
    try {
      const swept = await abortAbandonedUploads(app.ctx);
      if (swept.aborted || swept.reservations || swept.credentials)
        app.log.info(swept, 'abandoned uploads aborted, expired reservations and credentials removed');
    } finally {
      // Orphans are swept even after a failed upload sweep (it logs its own errors).
      // Its S3 client (the AWS SDK) loads with the first sweep, not at start (issue 14).
      const { sweepOrphanObjects } = await import('./services/orphan-cleanup.ts');
      await sweepOrphanObjects(app.ctx, serverStoreEndpoint(app), app.log);
    }
  });
  const firstSweep = setTimeout(sweepUploads, period);
  const sweeps = setInterval(sweepUploads, HOUR);

  // Rate-limit counters whose window has ended are only read as zero; dropping them keeps the
  // table as small as the traffic of one window.
  const sweepLimits = track('rate-limit-sweep', 'rate limit sweep failed', async () => {
    await app.ctx.limiter.sweep();
  });
  const limitSweeps = setInterval(sweepLimits, 5 * 60_000);

  // Monthly credit grants, yearly charges with their retries, lapsed subscriptions: every
  // change is a conditional UPDATE, so all instances may run it (server/billing/renewals.ts).
  // A promise: Stripe's SDK loads on first use (server/billing/setup.ts).
  const billingProviders = createPaymentProviders(app.ctx.db, app.ctx.config.billing);
  billingProviders.catch(() => undefined); // awaited (and reported) by the job's run
  const notices = billingNotices({ db: app.ctx.db, mailer: app.ctx.mailer, publicUrl: app.ctx.config.publicUrl, log: app.log });
  const renewBilling = track('billing-renewals', 'billing renewals failed', async () => {
    const report = await runBillingRenewals(app.ctx.db, await billingProviders, new Date(), { log: app.log, notices });
    if (Object.values(report).some((n) => n > 0)) app.log.info(report, 'billing renewals');
  });
  const firstRenewal = setTimeout(renewBilling, period);
  const renewals = setInterval(renewBilling, HOUR);

  // Issue 13: review reminders and the daily comment digest. Each mail is claimed in the
  // ledger's unique key first, so every instance may run these at once (one mail per person).
  const reviewMail = { db: app.ctx.db, mailer: app.ctx.mailer, publicUrl: app.ctx.config.publicUrl, secret: app.ctx.config.jwtSecret };
  const sendReviewMail = track('review-mail', 'review e-mails failed', async () => {
    const now = new Date();
    const reminders = await sendReviewReminders(reviewMail, now);
    const digests = await sendCommentDigests(reviewMail, now);
    if (reminders || digests) app.log.info({ reminders, digests }, 'review e-mails sent');
  });
  const reviewMails = setInterval(sendReviewMail, period);

  return async () => {
    stopped = true;
    clearInterval(reviewMails);
    clearInterval(timer);
    clearTimeout(firstSweep);
    clearInterval(sweeps);
    clearInterval(limitSweeps);
    clearTimeout(firstRenewal);
    clearInterval(renewals);
    await Promise.allSettled([...inFlight]);
  };
}
