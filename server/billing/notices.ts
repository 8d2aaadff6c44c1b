import type { FastifyBaseLogger } from 'fastify';
import { pathTo } from '../../src/domain/pages.ts';
import { chargeAttemptDate, formatMoney } from '../../src/domain/billing.ts';
import type { Db } from '../db/connect.ts';
import type { Mailer } from '../services/mailer.ts';
import { receiptMail, renewalFailedMail, type BillingMailDetails } from '../services/mail-templates.ts';
import { billingMailRepo } from '../repositories/billing-mail.ts';

/**
 * Billing e-mails (issue 11): a receipt for every paid invoice (first purchase, yearly renewal)
 * to the billing e-mail, and a notice for every failed renewal attempt to the owner (the last
 * one says the subscription is now inactive). One e-mail per invoice row (migration 0010).
 *
 * They are sent after the transaction that recorded the charge has committed, and only the
 * invoice's mail columns change afterwards: a mail that fails never undoes or repeats a charge.
 * The sender claims the invoice first (a conditional UPDATE), so two instances never send the
 * same e-mail at once; a failed send gives the claim back and the billing job tries again
 * (for a week), as it does for a claim abandoned by a crash.
 */
export interface BillingNotices {
  /** Sends the invoice's e-mail unless it was sent or is being sent. Never throws. */
  send(invoiceId: number): Promise<void>;
  /** The billing job: every e-mail still due (not sent, not being sent), oldest first. */
  sendDue(): Promise<number>;
}

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

export function billingNotices(deps: { db: Db; mailer: Mailer; publicUrl: string; log: FastifyBaseLogger }): BillingNotices {
  const repo = billingMailRepo(deps.db);
  const { mailer, log } = deps;
  const link = `${deps.publicUrl}${pathTo('settings')}?tab=subscription`;

  async function message(invoiceId: number) {
    const invoice = await repo.invoice(invoiceId);
    if (!invoice) return null;
    const ownerEmail = await repo.ownerEmail(invoice.organizationId);
    const billingEmail = typeof invoice.billing?.email === 'string' && invoice.billing.email.includes('@') ? invoice.billing.email : null;
    // A zero amount (a 100% coupon) charged no card: the receipt does not name one.
    const charged = invoice.status === 'failed' || invoice.amount > 0;
    const details: BillingMailDetails = {
      organizationName: invoice.organizationName,
      planName: invoice.planName,
      invoiceNumber: invoice.number,
      period: `${invoice.periodStart} to ${invoice.periodEnd}`,
      amount: formatMoney(invoice.amount, invoice.currency),
      card: charged && invoice.brand && invoice.last4 ? `${BRANDS[invoice.brand] ?? invoice.brand} ending in ${invoice.last4}` : null,
      link,
    };
    if (invoice.status === 'paid') {
      const to = billingEmail ?? ownerEmail;
      return to ? receiptMail(to, details) : null;
    }
    if (invoice.status !== 'failed') return null;
    // The how-many-th failed attempt of this renewal this invoice records (1–4).
    const attempt = await repo.failedAttempt(invoice);
    const to = ownerEmail ?? billingEmail;
    if (!to) return null;
    return renewalFailedMail(to, {
      ...details,
      reason: invoice.failureMessage ?? 'The payment was refused.',
      nextAttempt: chargeAttemptDate(invoice.periodStart, attempt),
    });
  }

  async function send(invoiceId: number): Promise<void> {
    try {
      const claimed = await repo.claim(invoiceId);
      if (!claimed) return;
      let mail;
      try {
        mail = await message(invoiceId);
        if (mail) await mailer.send(mail);
      } catch (error) {
        // Given back: the billing job sends it later. Only the invoice id is logged.
        await repo.release(invoiceId);
        log.warn({ err: error, invoiceId }, 'billing e-mail not sent; the billing job will retry');
        return;
      }
      // Nobody to write to (no owner, no billing e-mail) counts as done too.
      await repo.markSent(invoiceId);
      if (mail) log.info({ invoiceId }, 'billing e-mail sent');
    } catch (error) {
      log.error({ err: error, invoiceId }, 'billing e-mail failed');
    }
  }

  return {
    send,
    async sendDue() {
      const due = await repo.due();
      for (const id of due) await send(id);
      return due.length;
    },
  };
}
