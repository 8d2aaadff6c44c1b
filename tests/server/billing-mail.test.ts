import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeAttemptDate, termDates } from '../../src/domain/billing.ts';
import { businessToday } from '../../src/domain/business-calendar.ts';
import { EmbeddedGateway } from '../../server/billing/embedded-gateway.ts';
import { formatMoney } from '../../src/domain/billing.ts';
import { billingNotices, type BillingNotices } from '../../server/billing/notices.ts';
import { paymentProviders } from '../../server/billing/payment-provider.ts';
import type { Db } from '../../server/db/connect.ts';
import { runBillingRenewals } from '../../server/billing/renewals.ts';
import type { Mailer } from '../../server/services/mailer.ts';
import { readOutbox, type OutboxMessage } from '../support/outbox.ts';
import { DATABASES, type TestServer } from './harness.ts';
import { VALID_BILLING, VALID_SHIPPING, databaseText, newOwner, startBillingServer } from './billing-support.ts';

const VISA = '4242424242424242';
const silent = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, child: () => silent, level: 'silent' } as never;

/** Receipts and failed-renewal e-mails (issue 11), read from the outbox like every other e-mail. */
describe.each(DATABASES)('billing e-mails on $name', ({ url }) => {
  let server: TestServer;
  let db: Db;
  let notices: BillingNotices;
  let starter: { id: number; pricePerYear: number; currency: string };
  const today = businessToday();
  const day = (iso: string) => new Date(`${iso}T06:00:00Z`);
  const gateway = () => new EmbeddedGateway(server.db);
  const renew = (date: string) => runBillingRenewals(db, paymentProviders(gateway()), day(date), { notices });
  // A purchase answers before its receipt is sent (server/background.ts): wait for that work first.
  const mailsTo = async (address: string): Promise<OutboxMessage[]> => {
    await server.app.background.drain();
    return (await readOutbox(server.dataDir)).filter((m) => m.to.includes(address));
  };

  async function subscribe(number = VISA) {
    const owner = await newOwner(server.app, 'Mail');
    const billingEmail = `billing-${owner.organizationId}@example.com`;
    const card = await server.app.inject({
      method: 'POST',
      url: '/api/v1/payment-methods',
      headers: owner.headers,
      payload: { number, expMonth: 12, expYear: 2035, cvc: '123' },
    });
    const paymentMethodId = card.json<{ paymentMethodId: string }>().paymentMethodId;
    const response = await server.app.inject({
      method: 'POST',
      url: `/api/v1/organizations/${owner.organizationId}/subscriptions`,
      headers: owner.headers,
      payload: { paymentPlanId: starter.id, paymentMethodId, billing: { ...VALID_BILLING, email: billingEmail }, shipping: VALID_SHIPPING },
    });
    return { ...owner, billingEmail, paymentMethodId, response };
  }

  beforeAll(async () => {
    server = await startBillingServer(url);
    db = server.db;
    notices = billingNotices({ db, mailer: server.app.ctx.mailer, publicUrl: server.config.publicUrl, log: silent });
    const plans = (await server.app.inject({ method: 'GET', url: '/api/v1/payment-plans' })).json<(typeof starter & { name: string })[]>();
    starter = plans.find((p) => p.name === 'Starter')!;
  });

  afterAll(async () => server?.close());

  it('e-mails a receipt to the billing e-mail after a purchase, without the card number', async () => {
    const { billingEmail, email, response } = await subscribe();
    expect(response.statusCode, response.body).toBe(201);
    const invoice = response.json<{ invoices: { number: string }[] }>().invoices[0]!;
    const mails = await mailsTo(billingEmail);
    expect(mails).toHaveLength(1);
    const receipt = mails[0]!;
    expect(receipt.subject).toBe(`Your Cutdesk receipt ${invoice.number}`);
    const { renewableAt } = termDates(today, 12);
    for (const text of [invoice.number, 'Starter', `${today} to ${renewableAt}`, formatMoney(starter.pricePerYear, starter.currency), 'Visa ending in 4242'])
      expect(receipt.raw).toContain(text);
    expect(formatMoney(starter.pricePerYear, 'usd')).toBe('$5,988.00');
    expect(receipt.links).toContain(`${server.config.publicUrl}/user/admin-settings?tab=subscription`);
    expect(receipt.raw).not.toContain(VISA);
    expect(receipt.raw).not.toMatch(/4242\s?4242\s?4242/);
    // Not to the owner as well, and sent once: the job finds nothing left to send.
    expect(await mailsTo(email)).toHaveLength(0);
    await notices.sendDue();
    expect(await mailsTo(billingEmail)).toHaveLength(1);
  });

  it('keeps the purchase when the mail server fails, and the job sends the receipt later without charging again', async () => {
    const mailer: Mailer = server.app.ctx.mailer;
    const send = mailer.send;
    mailer.send = async () => {
      throw new Error('SMTP down');
    };
    let bought;
    try {
      bought = await subscribe();
      await server.app.background.drain(); // the receipt is tried after the answer, still against the failing server
    } finally {
      mailer.send = send;
    }
    expect(bought.response.statusCode).toBe(201);
    expect(await mailsTo(bought.billingEmail)).toHaveLength(0);
    const invoice = await db.selectFrom('invoices').selectAll().where('organizationId', '=', bought.organizationId).executeTakeFirstOrThrow();
    expect(invoice).toMatchObject({ status: 'paid', mailSentAt: null, mailClaimedAt: null });

    const report = await runBillingRenewals(db, paymentProviders(gateway()), new Date(), { notices });
    expect(report.mailsRetried).toBeGreaterThanOrEqual(1);
    expect(await mailsTo(bought.billingEmail)).toHaveLength(1);
    expect(await db.selectFrom('gatewayCharges').select('id').where('paymentMethodId', '=', bought.paymentMethodId).execute()).toHaveLength(1);
    expect((await db.selectFrom('invoices').select('mailSentAt').where('id', '=', invoice.id).executeTakeFirstOrThrow()).mailSentAt).not.toBeNull();
  });

  it('e-mails a receipt for a yearly renewal, once even when the job runs twice', async () => {
    const { billingEmail, organizationId, response } = await subscribe();
    expect(response.statusCode).toBe(201);
    const { renewableAt } = termDates(today, 12);
    const next = termDates(renewableAt, 12);
    await Promise.all([renew(renewableAt), renew(renewableAt)]);
    await renew(renewableAt);
    const mails = await mailsTo(billingEmail);
    expect(mails).toHaveLength(2);
    const receipt = mails.find((m) => m.raw.includes(`${renewableAt} to ${next.renewableAt}`))!;
    expect(receipt).toBeDefined();
    const invoice = await db
      .selectFrom('invoices')
      .select('number')
      .where('organizationId', '=', organizationId)
      .where('periodStart', '=', renewableAt)
      .executeTakeFirstOrThrow();
    expect(receipt.subject).toBe(`Your Cutdesk receipt ${invoice.number}`);
    expect(receipt.raw).toContain('Visa ending in 4242');
    expect(receipt.raw).not.toContain(VISA);
  });

  it('tells the owner of each failed renewal attempt, and that the subscription is inactive after the last', async () => {
    const { email, billingEmail, organizationId, paymentMethodId, response } = await subscribe();
    expect(response.statusCode).toBe(201);
    await db.updateTable('gatewayCards').set({ outcome: 'card_declined' }).where('id', '=', paymentMethodId).execute();
    const { renewableAt } = termDates(today, 12);
    const attempts = [0, 1, 2, 3].map((failures) => chargeAttemptDate(renewableAt, failures)!);
    for (const date of attempts) {
      await renew(date);
      await renew(date); // the same day again: no new attempt, no new e-mail
    }
    const mails = await mailsTo(email);
    expect(mails.map((m) => m.subject)).toEqual([
      'Your Cutdesk renewal payment failed',
      'Your Cutdesk renewal payment failed',
      'Your Cutdesk renewal payment failed',
      'Your Cutdesk subscription is now inactive',
    ]);
    // Each notice names the next attempt; all give the reason and the Subscription tab.
    attempts.slice(1).forEach((date, i) => expect(mails[i]!.raw).toContain(`We will try again on ${date}.`));
    for (const mail of mails) {
      expect(mail.raw).toContain('Your card was declined.');
      expect(mail.raw).toContain(formatMoney(starter.pricePerYear, starter.currency));
      expect(mail.links).toContain(`${server.config.publicUrl}/user/admin-settings?tab=subscription`);
      expect(mail.raw).not.toContain(VISA);
    }
    const subscription = await db
      .selectFrom('subscriptions')
      .select(['status', 'renewalFailures'])
      .where('organizationId', '=', organizationId)
      .executeTakeFirstOrThrow();
    expect(subscription).toEqual({ status: 'ended', renewalFailures: 4 });
    expect((await db.selectFrom('organizations').select('renewableAt').where('id', '=', organizationId).executeTakeFirstOrThrow()).renewableAt).toBeNull();
    // The billing e-mail got its purchase receipt only.
    expect((await mailsTo(billingEmail)).map((m) => m.subject)).toEqual([expect.stringMatching(/^Your Cutdesk receipt CD-\d{6}$/)]);
    // No card number anywhere: not in the outbox, not in the database.
    await server.app.background.drain();
    for (const mail of await readOutbox(server.dataDir)) expect(mail.raw).not.toContain(VISA);
    expect(await databaseText(server.db)).not.toContain(VISA);
  });
});
