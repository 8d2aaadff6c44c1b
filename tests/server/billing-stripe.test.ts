import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, termDates } from '../../src/domain/billing.ts';
import { businessToday } from '../../src/domain/business-calendar.ts';
import { readBillingConfig } from '../../server/billing/config.ts';
import { EmbeddedGateway } from '../../server/billing/embedded-gateway.ts';
import { paymentProviders } from '../../server/billing/payment-provider.ts';
import { runBillingRenewals } from '../../server/billing/renewals.ts';
import { billingService } from '../../server/billing/service.ts';
import { StripeProvider } from '../../server/billing/stripe-provider.ts';
import type { Db } from '../../server/db/connect.ts';
import { ConfigError, loadConfig } from '../../server/config.ts';
import { readOutbox } from '../support/outbox.ts';
import { DATABASES, type TestServer } from './harness.ts';
import { VALID_BILLING, VALID_SHIPPING, databaseText, newOwner, startBillingServer } from './billing-support.ts';

const SECRET_KEY = 'sk_test_standin0123456789';
const PUBLISHABLE_KEY = 'pk_test_standin0123456789';
const WEBHOOK_SECRET = 'whsec_standin0123456789';
const CARD_NUMBER = '4242424242424242';

interface Recorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: URLSearchParams;
  raw: string;
}

/**
 * A local stand-in for api.stripe.com: records every request and answers the few
 * Stripe-shaped objects the adapter reads. Like Stripe, it replays the first answer for a
 * repeated Idempotency-Key.
 */
async function startStripeStandIn() {
  const requests: Recorded[] = [];
  const attached = new Map<string, string>();
  const byKey = new Map<string, { status: number; body: unknown }>();
  let counter = 0;
  const card = { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 };
  const paymentMethod = (id: string) => ({ id, object: 'payment_method', type: 'card', customer: attached.get(id) ?? null, card });

  function answer(method: string, path: string, body: URLSearchParams): { status: number; body: unknown } {
    counter += 1;
    if (method === 'POST' && path === '/v1/customers') return { status: 200, body: { id: `cus_standin${counter}`, object: 'customer' } };
    const pm = /^\/v1\/payment_methods\/([\w]+)(\/attach)?$/.exec(path);
    if (pm) {
      const id = pm[1]!;
      if (id === 'pm_missing')
        return {
          status: 404,
          body: { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'payment_method', message: `No such PaymentMethod: '${id}'` } },
        };
      if (pm[2]) attached.set(id, body.get('customer') ?? '');
      return { status: 200, body: paymentMethod(id) };
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      const id = `pi_standin${counter}`;
      const method = body.get('payment_method');
      if (method === 'pm_card_chargeDeclined') {
        return {
          status: 402,
          body: {
            error: {
              type: 'card_error',
              code: 'card_declined',
              decline_code: 'generic_decline',
              message: 'Your card was declined.',
              payment_intent: { id, object: 'payment_intent', status: 'requires_payment_method' },
            },
          },
        };
      }
      const status = method === 'pm_card_threeDSecureRequired' ? 'requires_action' : 'succeeded';
      return { status: 200, body: { id, object: 'payment_intent', status, amount: Number(body.get('amount')), currency: body.get('currency') } };
    }
    const cancel = /^\/v1\/payment_intents\/(\w+)\/cancel$/.exec(path);
    if (cancel) return { status: 200, body: { id: cancel[1], object: 'payment_intent', status: 'canceled' } };
    if (method === 'POST' && path === '/v1/refunds')
      return { status: 200, body: { id: `re_standin${counter}`, object: 'refund', status: 'succeeded', payment_intent: body.get('payment_intent') } };
    return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` } } };
  }

  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    request.on('end', () => {
      const path = (request.url ?? '').split('?')[0]!;
      const body = new URLSearchParams(raw);
      requests.push({ method: request.method ?? '', path, headers: request.headers, body, raw });
      const key = request.headers['idempotency-key'];
      const replay = typeof key === 'string' ? byKey.get(key) : undefined;
      const result = replay ?? answer(request.method ?? '', path, body);
      if (typeof key === 'string' && !replay) byKey.set(key, result);
      response.writeHead(result.status, { 'content-type': 'application/json', 'request-id': `req_${counter}` });
      response.end(JSON.stringify(result.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { port, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('billing configuration', () => {
  const read = (env: Record<string, string>) => {
    const problems: string[] = [];
    return { config: readBillingConfig(env, problems), problems };
  };

  it('chooses the embedded gateway without a key and Stripe with one, naming problems without values', () => {
    expect(read({})).toEqual({ config: { provider: 'embedded', publishableKey: null, stripe: null }, problems: [] });
    expect(
      read({
        STRIPE_SECRET_KEY: SECRET_KEY,
        STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_HOST: '127.0.0.1',
        STRIPE_API_PORT: '12111',
        STRIPE_API_PROTOCOL: 'http',
      }),
    ).toEqual({
      config: {
        provider: 'stripe',
        publishableKey: PUBLISHABLE_KEY,
        stripe: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, host: '127.0.0.1', port: 12111, protocol: 'http' },
      },
      problems: [],
    });
    const bad = read({ STRIPE_SECRET_KEY: 'pk_live_oops', STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY, STRIPE_API_PORT: 'x', STRIPE_API_PROTOCOL: 'ftp' });
    expect(bad.problems).toHaveLength(3);
    expect(bad.problems.join(' ')).not.toContain('pk_live_oops');
    expect(read({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET }).problems).toHaveLength(1);
    expect(read({ STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY }).problems).toHaveLength(1);
  });

  it('requires a publishable key of the same mode with the secret key, and loadConfig refuses to start without it', () => {
    expect(read({ STRIPE_SECRET_KEY: SECRET_KEY }).problems).toEqual([expect.stringContaining('STRIPE_PUBLISHABLE_KEY is required')]);
    expect(read({ STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_PUBLISHABLE_KEY: 'sk_test_wrongkind' }).problems).toEqual([expect.stringContaining('pk_test_')]);
    expect(read({ STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_PUBLISHABLE_KEY: 'pk_live_standin0123456789' }).problems).toEqual([
      expect.stringContaining('both be test keys or both live keys'),
    ]);
    const dataDir = mkdtempSync(join(tmpdir(), 'cutdesk-billing-config-'));
    try {
      loadConfig({ DATA_DIR: dataDir, STRIPE_SECRET_KEY: SECRET_KEY });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([expect.stringContaining('STRIPE_PUBLISHABLE_KEY')]);
      expect((error as Error).message).not.toContain(SECRET_KEY);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    expect(loadConfig({ DATA_DIR: dataDir, STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY }).billing).toMatchObject({
      provider: 'stripe',
      publishableKey: PUBLISHABLE_KEY,
    });
    rmSync(dataDir, { recursive: true, force: true });
  });
});

describe.each(DATABASES)('the Stripe adapter against a local stand-in on $name', ({ url }) => {
  let stripe: Awaited<ReturnType<typeof startStripeStandIn>>;
  let server: TestServer;
  let db: Db;
  let provider: StripeProvider;
  let planId: number;
  let pricePerYear: number;

  const call = (method: 'GET' | 'POST' | 'DELETE', path: string, headers: Record<string, string> = {}, payload?: unknown) =>
    server.app.inject({ method, url: `/api/v1${path}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const purchaseBody = (paymentMethodId: string) => ({ paymentPlanId: planId, paymentMethodId, billing: VALID_BILLING, shipping: VALID_SHIPPING });
  const intents = () => stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    const env = {
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String(stripe.port),
      STRIPE_API_PROTOCOL: 'http',
    };
    // The server loads it as its configuration: app.ts's billing routes read `config.billing`.
    const billingConfig = readBillingConfig(env, []);
    provider = new StripeProvider(billingConfig.stripe!);
    server = await startBillingServer(url, { providers: paymentProviders(provider), billingConfig, env });
    db = server.db;
    const plan = (await call('GET', '/payment-plans')).json<{ id: number; pricePerYear: number }[]>()[0]!;
    planId = plan.id;
    pricePerYear = plan.pricePerYear;
  });

  afterAll(async () => {
    await server?.close();
    await stripe?.close();
  });

  it('buys a subscription with a PaymentIntent confirmed at once, keyed for idempotency', async () => {
    const owner = await newOwner(server.app, 'Stripe');
    // Cards are tokenized by Stripe.js in the browser: our card form does not exist here.
    const form = await call('POST', '/payment-methods', owner.headers, { number: CARD_NUMBER, expMonth: 12, expYear: 2034, cvc: '123' });
    expect(form.statusCode).toBe(404);
    const before = stripe.requests.length;
    const response = await call('POST', `/organizations/${owner.organizationId}/subscriptions`, owner.headers, purchaseBody('pm_card_visa'));
    expect(response.statusCode, response.body).toBe(201);
    const subscription = response.json<{ id: number; card: unknown; status: string }>();
    expect(subscription).toMatchObject({ status: 'active', card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 } });

    const sent = stripe.requests.slice(before);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/customers',
      'GET /v1/payment_methods/pm_card_visa',
      'POST /v1/payment_methods/pm_card_visa/attach',
      'POST /v1/payment_intents',
    ]);
    const intent = sent[3]!;
    expect(intent.headers['idempotency-key']).toBe(`cutdesk-subscription-${subscription.id}-first`);
    expect(intent.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(Object.fromEntries(intent.body)).toMatchObject({
      amount: String(pricePerYear),
      currency: 'usd',
      confirm: 'true',
      off_session: 'false',
      payment_method: 'pm_card_visa',
      customer: expect.stringMatching(/^cus_standin/),
    });
    expect(sent[0]!.headers['idempotency-key']).toBe(`cutdesk-customer-${owner.organizationId}`);
    // The card number never reached our server, so it reached neither Stripe's side nor our database.
    for (const request of stripe.requests) expect(`${request.path} ${request.raw}`).not.toContain(CARD_NUMBER);
    const stored = await databaseText(server.db);
    expect(stored).not.toContain(CARD_NUMBER);
    expect(stored).not.toContain(SECRET_KEY);
    const invoice = await db.selectFrom('invoices').selectAll().where('subscriptionId', '=', subscription.id).executeTakeFirstOrThrow();
    expect(invoice).toMatchObject({ status: 'paid', amount: pricePerYear, providerPaymentId: expect.stringMatching(/^pi_standin/) });

    // The same purchase sent again is answered from our records: Stripe is not asked to pay again.
    const other = await newOwner(server.app, 'Stripe replay');
    const first = await call(
      'POST',
      `/organizations/${other.organizationId}/subscriptions`,
      { ...other.headers, 'idempotency-key': 'stripe-replay-key-1' },
      purchaseBody('pm_card_visa2'),
    );
    expect(first.statusCode).toBe(201);
    const count = intents().length;
    const again = await call(
      'POST',
      `/organizations/${other.organizationId}/subscriptions`,
      { ...other.headers, 'idempotency-key': 'stripe-replay-key-1' },
      purchaseBody('pm_card_visa2'),
    );
    expect(again.statusCode).toBe(200);
    expect(intents()).toHaveLength(count);
  });

  it('gives the web app the publishable key for Stripe.js, and e-mails the receipt with the card Stripe reported', async () => {
    const config = await call('GET', '/client-config');
    expect(config.json()).toMatchObject({ payments: { provider: 'stripe', publishableKey: PUBLISHABLE_KEY } });
    expect(config.body).not.toContain(SECRET_KEY);
    expect(config.body).not.toContain(WEBHOOK_SECRET);
    const owner = await newOwner(server.app, 'Stripe receipt');
    const bought = await call('POST', `/organizations/${owner.organizationId}/subscriptions`, owner.headers, purchaseBody('pm_card_receipt'));
    expect(bought.statusCode).toBe(201);
    await server.app.background.drain(); // the receipt is sent after the answer
    const receipts = (await readOutbox(server.dataDir)).filter(
      (m) => m.subject === `Your Cutdesk receipt ${bought.json<{ invoices: { number: string }[] }>().invoices[0]!.number}`,
    );
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.to).toContain(VALID_BILLING.email);
    expect(receipts[0]!.raw).toContain('Visa ending in 4242');
    expect(receipts[0]!.raw).not.toContain(CARD_NUMBER);
    expect(receipts[0]!.raw).not.toContain(SECRET_KEY);
  });

  it('reports a decline (402), and cancels a payment that waits for authentication', async () => {
    const owner = await newOwner(server.app, 'Stripe declined');
    const declined = await call('POST', `/organizations/${owner.organizationId}/subscriptions`, owner.headers, purchaseBody('pm_card_chargeDeclined'));
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toMatchObject({ message: 'Your card was declined.' });

    const secure = await call('POST', `/organizations/${owner.organizationId}/subscriptions`, owner.headers, purchaseBody('pm_card_threeDSecureRequired'));
    expect(secure.statusCode).toBe(402);
    expect(secure.json()).toMatchObject({ message: BILLING_MESSAGES.authenticationRequired });
    expect(stripe.requests.at(-1)).toMatchObject({ method: 'POST', path: expect.stringMatching(/^\/v1\/payment_intents\/pi_standin\d+\/cancel$/) });

    const missing = await call('POST', `/organizations/${owner.organizationId}/subscriptions`, owner.headers, purchaseBody('pm_missing'));
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ fields: { paymentMethodId: BILLING_MESSAGES.paymentMethodInvalid } });
    const rows = await db.selectFrom('subscriptions').select('status').where('organizationId', '=', owner.organizationId).execute();
    expect(rows.map((r) => r.status)).toEqual(['failed', 'failed']);
  });

  it('sends the same idempotency key on a repeated charge and gets the same payment', async () => {
    const request = {
      customerId: 'cus_x',
      paymentMethodId: 'pm_card_visa',
      amount: 1234,
      currency: 'usd',
      idempotencyKey: 'adapter-key-1',
      description: 'test',
      offSession: true,
    };
    const first = await provider.charge(request);
    const second = await provider.charge(request);
    expect(first).toEqual(second);
    const sent = intents().filter((r) => r.headers['idempotency-key'] === 'adapter-key-1');
    expect(sent).toHaveLength(2);
    expect(sent[0]!.body.get('off_session')).toBe('true');
    await provider.refund(first.status === 'succeeded' ? first.paymentId : '', 'adapter-refund-1');
    expect(stripe.requests.at(-1)).toMatchObject({ path: '/v1/refunds', headers: expect.objectContaining({ 'idempotency-key': 'adapter-refund-1' }) });
  });

  it('renews off session through Stripe', async () => {
    const owner = await newOwner(server.app, 'Stripe renewal');
    const bought = await call('POST', `/organizations/${owner.organizationId}/subscriptions`, owner.headers, purchaseBody('pm_card_renew'));
    expect(bought.statusCode).toBe(201);
    const { renewableAt } = termDates(businessToday(), 12);
    await runBillingRenewals(db, paymentProviders(provider), new Date(`${renewableAt}T06:00:00Z`));
    const renewal = intents().find(
      (r) => r.headers['idempotency-key'] === `cutdesk-subscription-${bought.json<{ id: number }>().id}-renewal-${renewableAt}-attempt-0`,
    );
    expect(renewal?.body.get('off_session')).toBe('true');
    const invoices = await db.selectFrom('invoices').select('status').where('organizationId', '=', owner.organizationId).execute();
    expect(invoices.map((i) => i.status)).toEqual(['paid', 'paid']);
  });

  it('renews each subscription through the gateway its row names, and leaves a row of a gateway this instance lacks', async () => {
    const today = businessToday();
    const embedded = new EmbeddedGateway(server.db);
    // One subscription bought through Stripe, this server's gateway…
    const viaStripe = await newOwner(server.app, 'Two gateways Stripe');
    const bought = await call('POST', `/organizations/${viaStripe.organizationId}/subscriptions`, viaStripe.headers, purchaseBody('pm_card_two_gateways'));
    expect(bought.statusCode, bought.body).toBe(201);
    const stripeRow = bought.json<{ id: number }>().id;
    // …and one bought where the embedded gateway was the default (an instance before Stripe).
    const viaEmbedded = await newOwner(server.app, 'Two gateways embedded');
    const embeddedSale = billingService({ db, providers: paymentProviders(embedded), log: server.app.log });
    const card = await embeddedSale.addCard(viaEmbedded.organizationId, { number: CARD_NUMBER, expMonth: 12, expYear: 2034, cvc: '123' }, today);
    const { subscription } = await embeddedSale.purchase({
      organizationId: viaEmbedded.organizationId,
      organizationName: 'Two gateways embedded',
      ownerEmail: viaEmbedded.email,
      paymentPlanId: planId,
      paymentMethodId: card.paymentMethodId,
      coupon: null,
      billing: VALID_BILLING,
      shipping: VALID_SHIPPING,
      idempotencyKey: null,
      today,
    });
    const embeddedRow = subscription.id;
    expect(
      (await db.selectFrom('subscriptions').select('provider').where('id', 'in', [stripeRow, embeddedRow]).orderBy('id').execute()).map((r) => r.provider),
    ).toEqual(['stripe', 'embedded']);

    const { renewableAt } = termDates(today, 12);
    const at = new Date(`${renewableAt}T06:00:00Z`);
    const renewalKey = (id: number) => `cutdesk-subscription-${id}-renewal-${renewableAt}-attempt-0`;
    const stripeCharges = (id: number) => intents().filter((r) => r.headers['idempotency-key'] === renewalKey(id));
    const embeddedCharges = (id: number) => db.selectFrom('gatewayCharges').select('status').where('idempotencyKey', '=', renewalKey(id)).execute();
    const row = (id: number) =>
      db.selectFrom('subscriptions').select(['status', 'renewableAt', 'renewalFailures']).where('id', '=', id).executeTakeFirstOrThrow();

    // An instance with Stripe only renews the Stripe row and leaves the embedded one as it is,
    // with a warning that names the gateway: Stripe never hears of the embedded card.
    const warnings: string[] = [];
    const quiet = () => undefined;
    const log = {
      info: quiet,
      error: quiet,
      debug: quiet,
      trace: quiet,
      fatal: quiet,
      warn: (_details: unknown, message: string) => warnings.push(message),
      child: () => log,
      level: 'warn',
    };
    const stripeOnly = await runBillingRenewals(db, paymentProviders(provider), at, { log: log as never });
    expect(stripeOnly.skipped).toBeGreaterThanOrEqual(1);
    expect(warnings).toContainEqual(expect.stringContaining("payment provider 'embedded' is not configured"));
    expect(stripeCharges(stripeRow)).toHaveLength(1);
    expect(stripeCharges(embeddedRow)).toHaveLength(0);
    expect(stripe.requests.some((r) => r.raw.includes(card.paymentMethodId))).toBe(false);
    expect(await row(embeddedRow)).toEqual({ status: 'active', renewableAt, renewalFailures: 0 });
    expect(await embeddedCharges(embeddedRow)).toEqual([]);

    // With both configured (Stripe the default), the embedded row renews through the embedded gateway.
    const both = await runBillingRenewals(db, paymentProviders(provider, embedded), at);
    expect(both.skipped).toBe(0);
    expect(await embeddedCharges(embeddedRow)).toEqual([{ status: 'succeeded' }]);
    expect(stripeCharges(embeddedRow)).toHaveLength(0);
    expect(stripeCharges(stripeRow)).toHaveLength(1);
    const next = termDates(renewableAt, 12).renewableAt;
    expect(await row(embeddedRow)).toEqual({ status: 'active', renewableAt: next, renewalFailures: 0 });
    expect(await row(stripeRow)).toEqual({ status: 'active', renewableAt: next, renewalFailures: 0 });
  });

  describe('webhook', () => {
    const post = (payload: string, signature?: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/v1/billing/stripe-webhook',
        headers: { 'content-type': 'application/json; charset=utf-8', ...(signature ? { 'stripe-signature': signature } : {}) },
        payload,
      });

    it('accepts a correctly signed event and refuses others', async () => {
      const payload = JSON.stringify({
        id: 'evt_standin_1',
        object: 'event',
        type: 'payment_intent.succeeded',
        data: { object: { id: 'pi_x', object: 'payment_intent' } },
      });
      const good = await post(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }));
      expect(good.statusCode, good.body).toBe(200);
      expect(good.json()).toEqual({ received: true });
      const wrongSecret = await post(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someoneelse' }));
      expect(wrongSecret.statusCode).toBe(400);
      // The signature covers the exact bytes: re-serialized JSON (here, spaced) no longer matches.
      const tampered = await post(JSON.stringify(JSON.parse(payload), null, 1), Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }));
      expect(tampered.statusCode).toBe(400);
      expect((await post(payload)).statusCode).toBe(400);
      const old = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 });
      expect((await post(payload, old)).statusCode).toBe(400);
    });

    it('acknowledges a signed body that is no event, or an event without its object, and changes nothing', async () => {
      for (const payload of ['null', JSON.stringify({ type: 'x' }), JSON.stringify({ id: 'evt_standin_bare', type: 'charge.refunded' })]) {
        const response = await post(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }));
        expect(response.statusCode, payload).toBe(200);
      }
    });

    it('marks a fully refunded invoice, once per event', async () => {
      const invoice = await db
        .selectFrom('invoices')
        .selectAll()
        .where('providerPaymentId', 'is not', null)
        .where('status', '=', 'paid')
        .orderBy('id')
        .executeTakeFirstOrThrow();
      const payload = JSON.stringify({
        id: 'evt_standin_refund',
        object: 'event',
        type: 'charge.refunded',
        data: { object: { id: 'ch_1', object: 'charge', amount: invoice.amount, amount_refunded: invoice.amount, payment_intent: invoice.providerPaymentId } },
      });
      for (let i = 0; i < 2; i++) {
        const response = await post(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }));
        expect(response.statusCode).toBe(200);
      }
      expect((await db.selectFrom('invoices').select('status').where('id', '=', invoice.id).executeTakeFirstOrThrow()).status).toBe('refunded');
      expect(await db.selectFrom('billingEvents').selectAll().where('providerEventId', '=', 'evt_standin_refund').execute()).toHaveLength(1);
    });
  });
});
