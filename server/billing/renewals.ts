import type { FastifyBaseLogger } from 'fastify';
import { businessToday } from '../../src/domain/business-calendar.ts';
import type { Db } from '../db/connect.ts';
import { billingSubscriptionsRepo } from '../repositories/billing-subscriptions.ts';
import { grantMonthlyCredits } from './monthly-credits.ts';
import type { BillingNotices } from './notices.ts';
import { ProviderNotConfigured, type PaymentProviders } from './payment-provider.ts';
import { purchaseCompletion } from './purchase-completion.ts';
import { renewSubscription } from './subscription-renewal.ts';

export interface RenewalReport {
  /** Monthly credit grants made. */
  granted: number;
  /** Yearly charges that succeeded. */
  renewed: number;
  /** Yearly charges that failed (a retry follows, or the subscription ended). */
  failed: number;
  /** Subscriptions ended: cancelled at their term's end, or unpaid after every retry. */
  ended: number;
  /** Purchases left pending by an interruption and finished now. */
  resumed: number;
  /** Billing e-mails of earlier runs or requests that were still due (their send had failed). */
  mailsRetried: number;
  /**
   * Subscriptions due whose row names a payment provider this instance has not configured:
   * left as they are (a warning names the provider) for an instance that has it.
   */
  skipped: number;
}

export interface RenewalOptions {
  log?: FastifyBaseLogger;
  /** Receipts and failed-renewal notices; without it no e-mail is sent (tests of the money only). */
  notices?: BillingNotices | undefined;
}

const silentLog = {
  info() {},
  warn() {},
  error() {},
  debug() {},
  trace() {},
  fatal() {},
  child: () => silentLog,
  level: 'silent',
} as unknown as FastifyBaseLogger;

/** A purchase still pending after this long was interrupted (its request ended long ago). */
const STALE_PENDING_MS = 15 * 60_000;

/**
 * The billing job; run it every hour or so on every instance. Each change is a conditional
 * UPDATE on the value the run read (renew date, renewal date and failure count), so two
 * instances running at once grant and charge once: the second one's update matches no row.
 * The yearly charge's idempotency key names the subscription, the renewal date and the
 * attempt, so even two instances charging at once make one payment. Each subscription is
 * charged (or refunded) through the gateway its row names, whichever is this instance's default.
 */
export async function runBillingRenewals(db: Db, providers: PaymentProviders, now: Date, options: RenewalOptions = {}): Promise<RenewalReport> {
  const { log = silentLog, notices } = options;
  const today = businessToday(now);
  const report: RenewalReport = { granted: 0, renewed: 0, failed: 0, ended: 0, resumed: 0, mailsRetried: 0, skipped: 0 };
  report.granted = await grantMonthlyCredits(db, today);
  for (const subscription of await billingSubscriptionsRepo(db).dueForRenewal(today)) {
    try {
      const result = await renewSubscription(db, providers, subscription, today, log);
      if (!result) continue;
      report[result.outcome] += 1;
      // The receipt or the failed-payment notice, after the renewal's transaction committed.
      if (result.invoiceId !== null) await notices?.send(result.invoiceId);
    } catch (error) {
      if (error instanceof ProviderNotConfigured) {
        // Not the customer's failure: no attempt is counted, the row waits for an instance with that gateway.
        report.skipped += 1;
        log.warn(
          { subscriptionId: subscription.id, provider: error.provider },
          `subscription renewal skipped: payment provider '${error.provider}' is not configured on this instance`,
        );
      } else log.error({ err: error, subscriptionId: subscription.id }, 'subscription renewal failed');
    }
  }
  report.resumed = await resumeStalePurchases(db, providers, now, log, notices);
  // E-mails whose first send failed (mail server down) or whose sender died meanwhile.
  if (notices) report.mailsRetried = await notices.sendDue();
  return report;
}

async function resumeStalePurchases(
  db: Db,
  providers: PaymentProviders,
  now: Date,
  log: FastifyBaseLogger,
  notices: BillingNotices | undefined,
): Promise<number> {
  const stale = await billingSubscriptionsRepo(db).pendingSince(new Date(now.getTime() - STALE_PENDING_MS));
  const { finish } = purchaseCompletion({ db, providers, log, notices });
  let resumed = 0;
  for (const row of stale) {
    // Another instance's gateway: left pending for it (finish would only answer 503).
    if (!providers.named(row.provider)) {
      log.warn(
        { subscriptionId: row.id, provider: row.provider },
        `pending purchase left as it is: payment provider '${row.provider}' is not configured on this instance`,
      );
      continue;
    }
    // Replays the charge with the purchase's own key: paid once at most, then recorded or failed.
    await finish(row).then(
      () => (resumed += 1),
      (error: unknown) => log.warn({ err: error, subscriptionId: row.id }, 'pending purchase could not be finished'),
    );
  }
  return resumed;
}
