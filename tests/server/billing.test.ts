import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_FIELD_MESSAGES, BILLING_FIELDS, BILLING_MESSAGES, SHIPPING_FIELDS, termDates } from '../../src/domain/billing.ts';
import { businessToday } from '../../src/domain/business-calendar.ts';
import { addMonths } from '../../src/domain/subscription.ts';
import { EmbeddedGateway } from '../../server/billing/embedded-gateway.ts';
import { paymentProviders } from '../../server/billing/payment-provider.ts';
import { runBillingRenewals } from '../../server/billing/renewals.ts';
import { connectDatabase, type Db } from '../../server/db/connect.ts';
import { DATABASES, signIn, type TestServer } from './harness.ts';
import { VALID_BILLING, VALID_SHIPPING, databaseText, newOwner, startBillingServer } from './billing-support.ts';

type Headers = Record<string, string>;
const VISA = '4242424242424242';
const DECLINED = '4000000000000002';
const NO_FUNDS = '4000000000009995';

describe.each(DATABASES)('subscriptions and billing on $name', ({ url }) => {
  let server: TestServer;
  let db: Db;
  const gateway = () => new EmbeddedGateway(server.db);
  const today = businessToday();
  let starter: { id: number; pricePerYear: number; monthlyCredits: number; storage: number; kitType: string };
  const as: Record<'OWNER' | 'USER' | 'ADMIN' | 'BEA', Headers> = {} as never;
  let demoId: number;

  const call = (method: 'GET' | 'POST' | 'DELETE', path: string, headers: Headers = {}, payload?: unknown) =>
    server.app.inject({ method, url: `/api/v1${path}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

  async function addCard(headers: Headers, number = VISA, extra: Record<string, unknown> = {}): Promise<string> {
    const response = await call('POST', '/payment-methods', headers, {
      number,
      expMonth: 12,
      expYear: 2035,
      cvc: number.startsWith('37') ? '1234' : '123',
      ...extra,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ paymentMethodId: string }>().paymentMethodId;
  }

  const purchaseBody = (paymentMethodId: string, extra: Record<string, unknown> = {}) => ({
    paymentPlanId: starter.id,
    paymentMethodId,
    renewableAt: addMonths(today, 12),
    billing: VALID_BILLING,
    shipping: VALID_SHIPPING,
    ...extra,
  });

  async function subscribedOwner(number = VISA, extra: Record<string, unknown> = {}) {
    const owner = await newOwner(server.app);
    const pm = await addCard(owner.headers, number);
    const response = await call('POST', `/organizations/${owner.organizationId}/subscriptions`, owner.headers, purchaseBody(pm, extra));
    return { ...owner, pm, response };
  }

  async function createCoupon(
    code: string,
    values: { percentOff?: number; amountOff?: number; validUntil?: string; maxRedemptions?: number; retired?: boolean },
  ) {
    await db
      .insertInto('coupons')
      .values({
        code,
        percentOff: values.percentOff ?? null,
        amountOff: values.amountOff ?? null,
        validUntil: values.validUntil ?? null,
        maxRedemptions: values.maxRedemptions ?? null,
        retired: values.retired ?? false,
      })
      .execute();
  }

  const orgState = async (organizationId: number) => ({
    organization: await db.selectFrom('organizations').selectAll().where('id', '=', organizationId).executeTakeFirstOrThrow(),
    credits: await db.selectFrom('credits').selectAll().where('organizationId', '=', organizationId).executeTakeFirstOrThrow(),
    subscriptions: await db.selectFrom('subscriptions').selectAll().where('organizationId', '=', organizationId).orderBy('id').execute(),
    invoices: await db.selectFrom('invoices').selectAll().where('organizationId', '=', organizationId).orderBy('id').execute(),
  });

  beforeAll(async () => {
    server = await startBillingServer(url);
    db = server.db;
    as.OWNER = await signIn(server.app, 'owner@demo.cutdesk.test');
    as.USER = await signIn(server.app, 'user@demo.cutdesk.test');
    as.ADMIN = await signIn(server.app, 'admin@demo.cutdesk.test');
    as.BEA = await signIn(server.app, 'bea@bluefern.demo.cutdesk.test');
    demoId = (await db.selectFrom('organizations').select('id').where('name', '=', 'Demo Studio').executeTakeFirstOrThrow()).id;
    const plans = (await call('GET', '/payment-plans')).json<(typeof starter & { name: string })[]>();
    starter = plans.find((p) => p.name === 'Starter')! as typeof starter;
  });

  afterAll(async () => server?.close());

  describe('plans and cards', () => {
    it('lists the plans without a token', async () => {
      const response = await call('GET', '/payment-plans');
      expect(response.statusCode).toBe(200);
      const plans =
        response.json<
          { name: string; pricePerYear: number; pricePerMonth: number; termMonths: number; monthlyCredits: number; storage: number; currency: string }[]
        >();
      expect(plans.map((p) => p.name)).toEqual(['Starter', 'Growth', 'Studio']);
      for (const plan of plans) {
        expect(plan.termMonths).toBe(12);
        expect(plan.pricePerYear).toBe(plan.pricePerMonth * 12);
        expect(Number.isInteger(plan.pricePerYear)).toBe(true);
        expect(plan.currency).toBe('usd');
      }
    });

    it('tokenizes a card and keeps only brand, last four and expiry', async () => {
      const response = await call('POST', '/payment-methods', as.BEA, { number: '4242 4242 4242 4242', expMonth: '12', expYear: '35', cvc: '123' });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ paymentMethodId: expect.stringMatching(/^pm_/), brand: 'visa', last4: '4242', expMonth: 12, expYear: 2035 });
      const amex = await call('POST', '/payment-methods', as.BEA, { number: '378282246310005', expMonth: 1, expYear: 2030, cvc: '1234' });
      expect(amex.json()).toMatchObject({ brand: 'amex', last4: '0005' });
      const stored = await databaseText(server.db);
      expect(stored).not.toContain('4242424242424242');
      expect(stored).not.toContain('378282246310005');
    });

    it('answers 400 with a message per card field', async () => {
      const bad = async (body: Record<string, unknown>) => {
        const response = await call('POST', '/payment-methods', as.BEA, { number: VISA, expMonth: 12, expYear: 2035, cvc: '123', ...body });
        expect(response.statusCode).toBe(400);
        return response.json<{ message: string; fields: Record<string, string> }>().fields;
      };
      expect(await bad({ number: '4242424242424241' })).toEqual({ number: BILLING_MESSAGES.cardNumberInvalid });
      expect(await bad({ number: '' })).toEqual({ number: BILLING_MESSAGES.cardNumberRequired });
      const [year, month] = today.split('-').map(Number) as [number, number];
      const lastMonth = month === 1 ? { expMonth: 12, expYear: year - 1 } : { expMonth: month - 1, expYear: year };
      expect(await bad(lastMonth)).toEqual({ expiry: BILLING_MESSAGES.expiryPast });
      expect(await bad({ expMonth: 13 })).toEqual({ expiry: BILLING_MESSAGES.expiryInvalid });
      expect(await bad({ cvc: '12' })).toEqual({ cvc: BILLING_MESSAGES.cvcInvalid });
      expect(await bad({ number: '378282246310005', cvc: '123' })).toEqual({ cvc: BILLING_MESSAGES.cvcInvalid });
      expect(await bad({ number: '1234', expMonth: 0, cvc: '' })).toEqual({
        number: BILLING_MESSAGES.cardNumberInvalid,
        expiry: BILLING_MESSAGES.expiryInvalid,
        cvc: BILLING_MESSAGES.cvcInvalid,
      });
      // The current month is still good.
      expect((await call('POST', '/payment-methods', as.BEA, { number: VISA, expMonth: month, expYear: year, cvc: '123' })).statusCode).toBe(201);
    });

    it('lets only an owner, signed in as themselves, add a card', async () => {
      const body = { number: VISA, expMonth: 12, expYear: 2035, cvc: '123' };
      expect((await call('POST', '/payment-methods', {}, body)).statusCode).toBe(401);
      expect((await call('POST', '/payment-methods', as.USER, body)).statusCode).toBe(403);
      expect((await call('POST', '/payment-methods', as.ADMIN, body)).statusCode).toBe(403);
    });
  });

  describe('billing fields (C§5)', () => {
    it('gives every missing field its own message', async () => {
      const owner = await newOwner(server.app);
      const pm = await addCard(owner.headers);
      const response = await call('POST', `/organizations/${owner.organizationId}/subscriptions`, owner.headers, {
        paymentPlanId: starter.id,
        paymentMethodId: pm,
      });
      expect(response.statusCode).toBe(400);
      const { fields } = response.json<{ fields: Record<string, string> }>();
      for (const field of BILLING_FIELDS) expect(fields[`billing.${field}`]).toBe(field === 'email' ? 'E-mail is required' : BILLING_FIELD_MESSAGES[field]);
      for (const field of SHIPPING_FIELDS) expect(fields[`shipping.${field}`]).toBe(BILLING_FIELD_MESSAGES[field]);
      expect(Object.keys(fields)).toHaveLength(BILLING_FIELDS.length + SHIPPING_FIELDS.length);
      // Nothing was reserved or charged.
      expect((await orgState(owner.organizationId)).subscriptions).toHaveLength(0);
    });

    it('answers 400 for each field alone, with that field only', async () => {
      const owner = await newOwner(server.app);
      const pm = await addCard(owner.headers);
      for (const [block, fields, values] of [
        ['billing', BILLING_FIELDS, VALID_BILLING],
        ['shipping', SHIPPING_FIELDS, VALID_SHIPPING],
      ] as const) {
        for (const field of fields) {
          const response = await call(
            'POST',
            `/organizations/${owner.organizationId}/subscriptions`,
            owner.headers,
            purchaseBody(pm, { [block]: { ...values, [field]: '' } }),
          );
          expect(response.statusCode, `${block}.${field}`).toBe(400);
          expect(Object.keys(response.json<{ fields: Record<string, string> }>().fields)).toEqual([`${block}.${field}`]);
        }
      }
      const country = await call(
        'POST',
        `/organizations/${owner.organizationId}/subscriptions`,
        owner.headers,
        purchaseBody(pm, { billing: { ...VALID_BILLING, country: 'Select a country' } }),
      );
      expect(country.json()).toMatchObject({ message: BILLING_FIELD_MESSAGES.country, fields: { 'billing.country': BILLING_FIELD_MESSAGES.country } });
    });

    it('refuses a raw card number in the subscription payload and an unknown plan or card', async () => {
      const owner = await newOwner(server.app);
      const pm = await addCard(owner.headers);
      const path = `/organizations/${owner.organizationId}/subscriptions`;
      // Extra fields in the billing block are dropped, never stored.
      const extra = await subscribedOwner(VISA, { billing: { ...VALID_BILLING, cardNumber: '4000056655665556' } });
      expect(extra.response.statusCode).toBe(201);
      expect(extra.response.json<{ billing: Record<string, string> }>().billing).toEqual(VALID_BILLING);
      expect(await databaseText(server.db)).not.toContain('4000056655665556');
      const raw = await call('POST', path, owner.headers, purchaseBody(pm, { card: { number: VISA, cvc: '123' } }));
      expect(raw.statusCode).toBe(400);
      expect(raw.json()).toMatchObject({ fields: { card: BILLING_MESSAGES.rawCardRefused } });
      expect((await call('POST', path, owner.headers, purchaseBody(pm, { paymentPlanId: 999_999 }))).json()).toMatchObject({
        fields: { paymentPlanId: BILLING_MESSAGES.planUnavailable },
      });
      expect((await call('POST', path, owner.headers, purchaseBody('pm_unknown'))).json()).toMatchObject({
        fields: { paymentMethodId: BILLING_MESSAGES.paymentMethodInvalid },
      });
      // Another organization's card.
      const otherCard = await addCard(as.BEA);
      expect((await call('POST', path, owner.headers, purchaseBody(otherCard))).statusCode).toBe(400);
      expect(await databaseText(server.db)).not.toContain(VISA);
    });
  });

  describe('purchase', () => {
    it('charges the first year and sets credits, storage, renewal, invoice and kit in one go', async () => {
      const { organizationId, headers, response } = await subscribedOwner();
      expect(response.statusCode, response.body).toBe(201);
      const terms = termDates(today, 12);
      expect(response.json()).toMatchObject({
        status: 'active',
        state: 'active',
        plan: { id: starter.id, name: 'Starter' },
        startDate: today,
        renewableAt: terms.renewableAt,
        isCancelled: false,
        amount: starter.pricePerYear,
        card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2035 },
        invoices: [{ number: expect.stringMatching(/^CD-\d{6}$/), amount: starter.pricePerYear, status: 'paid' }],
        billing: VALID_BILLING,
      });
      const state = await orgState(organizationId);
      expect(state.organization).toMatchObject({
        isCancelled: false,
        storageTb: starter.storage,
        kitOrdered: true,
        kitType: 'Starter kit',
        kitOrderedAt: today,
      });
      expect(state.organization.renewableAt?.toISOString().slice(0, 10)).toBe(terms.renewableAt);
      expect(state.credits).toMatchObject({
        startDate: today,
        endDate: terms.endDate,
        activeCredits: starter.monthlyCredits,
        usedCredits: 0,
        creditsPerInterval: starter.monthlyCredits,
        intervalMonths: 1,
        renewable: true,
        renewDate: terms.renewDate,
      });
      const charges = await db.selectFrom('gatewayCharges').selectAll().where('paymentMethodId', '=', state.subscriptions[0]!.paymentMethodId).execute();
      expect(charges).toMatchObject([{ amount: starter.pricePerYear, status: 'succeeded' }]);
      // The organization's own answer shows the new credits.
      const organization = await call('GET', `/organizations/${organizationId}`, headers);
      expect(organization.json()).toMatchObject({
        credits: { activeCredits: starter.monthlyCredits, status: 'ACTIVE', renewDate: terms.renewDate },
        storage: starter.storage,
      });
    });

    it('ends the trial: the owner leaves the staff Trial Users list once the organization subscribes (A§2)', async () => {
      const trialEmails = async () => {
        const answer = await call('GET', '/users/trial?limit=20', as.ADMIN); // newest organizations first
        expect(answer.statusCode, answer.body).toBe(200);
        return answer.json<{ email: string }[]>().map((user) => user.email);
      };
      const owner = await newOwner(server.app, 'Trial');
      expect(await trialEmails()).toContain(owner.email);
      const method = await call('POST', '/payment-methods', owner.headers, { number: '4242424242424242', expMonth: 12, expYear: 2035, cvc: '123' });
      const bought = await call('POST', `/organizations/${owner.organizationId}/subscriptions`, owner.headers, {
        paymentPlanId: starter.id,
        paymentMethodId: method.json<{ paymentMethodId: string }>().paymentMethodId,
        billing: VALID_BILLING,
        shipping: VALID_SHIPPING,
      });
      expect(bought.statusCode, bought.body).toBe(201);
      expect(await trialEmails()).not.toContain(owner.email);
    });

    it('answers 402 with the decline reason and leaves nothing bought', async () => {
      for (const [number, message] of [
        [DECLINED, 'Your card was declined.'],
        [NO_FUNDS, 'Your card has insufficient funds.'],
      ] as const) {
        const { organizationId, headers, response } = await subscribedOwner(number);
        expect(response.statusCode).toBe(402);
        expect(response.json()).toMatchObject({ message, fields: { paymentMethodId: message } });
        const state = await orgState(organizationId);
        expect(state.organization.renewableAt).toBeNull();
        expect(state.organization.kitOrdered).toBe(false);
        expect(state.credits.activeCredits).toBe(0);
        expect(state.invoices).toHaveLength(0);
        expect(state.subscriptions).toMatchObject([{ status: 'failed', failureMessage: message }]);
        expect((await call('GET', `/organizations/${organizationId}/subscriptions`, headers)).json()).toEqual([]);
        // A good card afterwards buys the subscription.
        const pm = await addCard(headers);
        expect((await call('POST', `/organizations/${organizationId}/subscriptions`, headers, purchaseBody(pm))).statusCode).toBe(201);
      }
    });

    it('never charges twice for the same idempotency key, even sent twice at once', async () => {
      const owner = await newOwner(server.app);
      const pm = await addCard(owner.headers);
      const path = `/organizations/${owner.organizationId}/subscriptions`;
      const headers = { ...owner.headers, 'idempotency-key': `double-${owner.organizationId}-submit` };
      const [first, second] = await Promise.all([call('POST', path, headers, purchaseBody(pm)), call('POST', path, headers, purchaseBody(pm))]);
      expect([first.statusCode, second.statusCode].sort()).toEqual([200, 201]);
      expect(first.json<{ id: number }>().id).toBe(second.json<{ id: number }>().id);
      const again = await call('POST', path, headers, purchaseBody(pm));
      expect(again.statusCode).toBe(200);
      expect(again.json<{ id: number }>().id).toBe(first.json<{ id: number }>().id);
      const state = await orgState(owner.organizationId);
      expect(state.subscriptions).toHaveLength(1);
      expect(state.invoices).toHaveLength(1);
      expect(await db.selectFrom('gatewayCharges').select('id').where('paymentMethodId', '=', pm).execute()).toHaveLength(1);
      expect(state.credits.activeCredits).toBe(starter.monthlyCredits);
      // The same key with another order is refused, not answered with the old order.
      const plans = (await call('GET', '/payment-plans')).json<{ id: number }[]>();
      const other = plans.find((plan) => plan.id !== starter.id)!;
      const mismatch = await call('POST', path, headers, { ...purchaseBody(pm), paymentPlanId: other.id });
      expect(mismatch.statusCode).toBe(409);
      expect(mismatch.json()).toMatchObject({ message: BILLING_MESSAGES.idempotencyKeyReused });
      expect((await call('POST', path, headers, { ...purchaseBody(pm), coupon: 'WELCOME10' })).statusCode).toBe(409);
    });

    it('replays a decline for its key, and the key in the body works too', async () => {
      const owner = await newOwner(server.app);
      const pm = await addCard(owner.headers, DECLINED);
      const path = `/organizations/${owner.organizationId}/subscriptions`;
      const body = purchaseBody(pm, { idempotencyKey: 'body-key-declined-1' });
      expect((await call('POST', path, owner.headers, body)).statusCode).toBe(402);
      expect((await call('POST', path, owner.headers, body)).json()).toMatchObject({ message: 'Your card was declined.' });
      expect(await db.selectFrom('gatewayCharges').select('id').where('paymentMethodId', '=', pm).execute()).toHaveLength(1);
    });

    it('refuses a second subscription with the spec message (409)', async () => {
      const { organizationId, headers, response } = await subscribedOwner();
      expect(response.statusCode).toBe(201);
      const pm = await addCard(headers);
      const second = await call('POST', `/organizations/${organizationId}/subscriptions`, headers, purchaseBody(pm));
      expect(second.statusCode).toBe(409);
      expect(second.json()).toMatchObject({ message: BILLING_MESSAGES.createFailed });
      expect((await orgState(organizationId)).invoices).toHaveLength(1);
      // A subscription staff set (Demo Studio) counts as well.
      const demoCard = await addCard(as.OWNER);
      const demo = await call('POST', `/organizations/${demoId}/subscriptions`, as.OWNER, purchaseBody(demoCard));
      expect(demo.statusCode).toBe(409);
      expect(demo.json()).toMatchObject({ message: 'Error while creating subscription. Try again or check if you do not already have a subscription.' });
    });

    it('lets two different requests race and sells one subscription', async () => {
      const owner = await newOwner(server.app);
      const pm = await addCard(owner.headers);
      const path = `/organizations/${owner.organizationId}/subscriptions`;
      const results = await Promise.all(
        [1, 2, 3].map((n) => call('POST', path, { ...owner.headers, 'idempotency-key': `race-${owner.organizationId}-${n}-key` }, purchaseBody(pm))),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
      expect((await orgState(owner.organizationId)).invoices).toHaveLength(1);
    });
  });

  describe('coupons', () => {
    it('checks a code for the caller organization', async () => {
      await createCoupon('Welcome20', { percentOff: 20 });
      await createCoupon('OLD10', { percentOff: 10, validUntil: '2020-01-01' });
      await createCoupon('GONE', { amountOff: 1000, retired: true });
      const owner = await newOwner(server.app);
      const ok = await call('GET', '/payment-plans/coupons/welcome20', owner.headers);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ code: 'Welcome20', percentOff: 20, amountOff: null, validUntil: null });
      for (const code of ['NOPE', 'OLD10', 'GONE']) {
        const response = await call('GET', `/payment-plans/coupons/${code}`, owner.headers);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ message: BILLING_MESSAGES.couponInvalid, fields: { coupon: BILLING_MESSAGES.couponInvalid } });
      }
      expect((await call('GET', '/payment-plans/coupons/WELCOME20')).statusCode).toBe(401);
      expect((await call('GET', '/payment-plans/coupons/WELCOME20', as.ADMIN)).statusCode).toBe(403);
      // A user of an organization may look too (the owner buys).
      expect((await call('GET', '/payment-plans/coupons/WELCOME20', as.USER)).statusCode).toBe(200);
    });

    it('discounts the first year and is used once per organization', async () => {
      const { organizationId, headers, response } = await subscribedOwner(VISA, { coupon: ' welcome20 ' });
      expect(response.statusCode).toBe(201);
      const expected = starter.pricePerYear - Math.round(starter.pricePerYear * 0.2);
      expect(response.json()).toMatchObject({ amount: expected, invoices: [{ amount: expected }] });
      expect((await orgState(organizationId)).invoices[0]!.amount).toBe(expected);
      const used = await call('GET', '/payment-plans/coupons/WELCOME20', headers);
      expect(used.statusCode).toBe(404);
      expect(used.json()).toMatchObject({ message: BILLING_MESSAGES.couponInvalid });
    });

    it('refuses a bad code at purchase with the coupon message, charging nothing', async () => {
      const owner = await newOwner(server.app);
      const pm = await addCard(owner.headers);
      const response = await call('POST', `/organizations/${owner.organizationId}/subscriptions`, owner.headers, purchaseBody(pm, { coupon: 'OLD10' }));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: BILLING_MESSAGES.couponInvalid, fields: { coupon: BILLING_MESSAGES.couponInvalid } });
      expect(await db.selectFrom('gatewayCharges').select('id').where('paymentMethodId', '=', pm).execute()).toHaveLength(0);
    });

    it('stops at its maximum, gives a declined purchase its redemption back, and takes 100% off', async () => {
      await createCoupon('ONEONLY', { amountOff: 5000, maxRedemptions: 1 });
      const declined = await subscribedOwner(DECLINED, { coupon: 'ONEONLY' });
      expect(declined.response.statusCode).toBe(402);
      expect((await db.selectFrom('coupons').select('timesRedeemed').where('code', '=', 'ONEONLY').executeTakeFirstOrThrow()).timesRedeemed).toBe(0);
      const first = await subscribedOwner(VISA, { coupon: 'ONEONLY' });
      expect(first.response.json()).toMatchObject({ amount: starter.pricePerYear - 5000 });
      const second = await subscribedOwner(VISA, { coupon: 'ONEONLY' });
      expect(second.response.statusCode).toBe(400);
      expect(second.response.json()).toMatchObject({ fields: { coupon: BILLING_MESSAGES.couponInvalid } });

      await createCoupon('FREEYEAR', { percentOff: 100 });
      const free = await subscribedOwner(VISA, { coupon: 'FREEYEAR' });
      expect(free.response.statusCode).toBe(201);
      expect(free.response.json()).toMatchObject({ status: 'active', amount: 0, invoices: [{ amount: 0, status: 'paid' }] });
      expect(await db.selectFrom('gatewayCharges').select('id').where('paymentMethodId', '=', free.pm).execute()).toHaveLength(0);
    });
    it('checks the coupon only after the subscription and the card, and limits purchases per address', async () => {
      const { organizationId, headers, pm } = await subscribedOwner();
      // Subscribed already: any coupon, good or bad, gets the same 409 (nothing to learn from it).
      for (const coupon of ['NO-SUCH-CODE', 'WELCOME10']) {
        const answer = await call('POST', `/organizations/${organizationId}/subscriptions`, headers, purchaseBody(pm, { coupon }));
        expect(answer.statusCode).toBe(409);
      }
      // Without a usable card: the card's 400 whatever the coupon.
      const fresh = await newOwner(server.app);
      const unusable = await call(
        'POST',
        `/organizations/${fresh.organizationId}/subscriptions`,
        fresh.headers,
        purchaseBody('pm_doesnotexist', { coupon: 'NO-SUCH-CODE' }),
      );
      expect(unusable.statusCode).toBe(400);
      expect(unusable.json().fields).toHaveProperty('paymentMethodId');
      expect(unusable.json().fields).not.toHaveProperty('coupon');
    });
  });

  describe('cancel', () => {
    it('cancels at the end of the term, keeping credits until then', async () => {
      const { organizationId, headers } = await subscribedOwner();
      const before = await orgState(organizationId);
      const response = await call('DELETE', `/organizations/${organizationId}/subscriptions`, headers);
      expect(response.statusCode).toBe(204);
      expect((await call('DELETE', `/organizations/${organizationId}/subscriptions`, headers)).statusCode).toBe(204);
      const after = await orgState(organizationId);
      expect(after.organization.isCancelled).toBe(true);
      expect(after.organization.renewableAt).toEqual(before.organization.renewableAt);
      expect(after.credits).toEqual(before.credits);
      const list = (await call('GET', `/organizations/${organizationId}/subscriptions`, headers)).json<{ status: string; isCancelled: boolean }[]>();
      expect(list).toMatchObject([{ status: 'canceled', isCancelled: true }]);
      // Still one subscription: buying again before the term ends is refused.
      const pm = await addCard(headers);
      expect((await call('POST', `/organizations/${organizationId}/subscriptions`, headers, purchaseBody(pm))).statusCode).toBe(409);
    });

    it('answers 404 with a message when there is nothing to cancel', async () => {
      const owner = await newOwner(server.app);
      const response = await call('DELETE', `/organizations/${owner.organizationId}/subscriptions`, owner.headers);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ message: BILLING_MESSAGES.noSubscription });
    });
  });

  describe('who may', () => {
    it('lets only the owner buy and cancel; others get 401, 403 or 404', async () => {
      const blueFernId = (await db.selectFrom('organizations').select('id').where('name', '=', 'Blue Fern Bakery').executeTakeFirstOrThrow()).id;
      const impersonation = await call('GET', `/organizations/${demoId}/admin/login`, as.ADMIN);
      expect(impersonation.statusCode).toBe(200);
      const impersonating = { authorization: `Bearer ${impersonation.json<{ token: string }>().token}` };
      const demoCard = await addCard(as.OWNER);
      const path = `/organizations/${demoId}/subscriptions`;
      for (const method of ['POST', 'DELETE'] as const) {
        const payload = method === 'POST' ? purchaseBody(demoCard) : undefined;
        expect((await call(method, path, {}, payload)).statusCode, `${method} anonymous`).toBe(401);
        expect((await call(method, path, as.USER, payload)).statusCode, `${method} user`).toBe(403);
        expect((await call(method, path, impersonating, payload)).statusCode, `${method} impersonating`).toBe(403);
        expect((await call(method, path, as.ADMIN, payload)).statusCode, `${method} admin`).toBe(403);
        expect((await call(method, path, as.BEA, payload)).statusCode, `${method} other owner`).toBe(404);
        expect((await call(method, `/organizations/${blueFernId}/subscriptions`, as.OWNER, payload)).statusCode, `${method} owner elsewhere`).toBe(404);
      }
      // Reading: members and staff; a user does not see the billing address.
      const { organizationId, headers } = await subscribedOwner();
      expect((await call('GET', `/organizations/${organizationId}/subscriptions`, headers)).json()).toMatchObject([{ billing: VALID_BILLING }]);
      expect((await call('GET', `/organizations/${organizationId}/subscriptions`, as.ADMIN)).statusCode).toBe(200);
      expect((await call('GET', `/organizations/${organizationId}/subscriptions`, as.USER)).statusCode).toBe(404);
      expect((await call('GET', `/organizations/${organizationId}/subscriptions`)).statusCode).toBe(401);
      const userView = await call('GET', `/organizations/${demoId}/subscriptions`, as.USER);
      expect(userView.statusCode).toBe(200);
      expect(userView.json()).toEqual([]);
      expect((await call('GET', '/organizations/abc/subscriptions', headers)).statusCode).toBe(404);
    });
  });

  describe('renewal job', () => {
    const day = (iso: string) => new Date(`${iso}T06:00:00Z`);

    it('grants the monthly credits once, run twice and from two connections', async () => {
      const { organizationId } = await subscribedOwner();
      const { renewDate } = termDates(today, 12);
      const other = url ? await connectDatabase({ databaseUrl: server.config.databaseUrl, dataDir: server.dataDir }) : server.db;
      try {
        // Not due yet.
        expect((await runBillingRenewals(db, paymentProviders(gateway()), day(today))).granted).toBe(0);
        const runs = await Promise.all([
          runBillingRenewals(db, paymentProviders(gateway()), day(renewDate!)),
          runBillingRenewals(other, paymentProviders(new EmbeddedGateway(other)), day(renewDate!)),
        ]);
        await runBillingRenewals(db, paymentProviders(gateway()), day(renewDate!));
        const credits = (await orgState(organizationId)).credits;
        expect(credits.activeCredits).toBe(2 * starter.monthlyCredits); // unused credits roll over
        expect(credits.renewDate).toBe(addMonths(today, 2));
        expect(runs.map((r) => r.granted).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
      } finally {
        if (other !== server.db) await other.destroy();
      }
    });

    it('catches up on months missed, and leaves the last month to the yearly renewal', async () => {
      const { organizationId } = await subscribedOwner();
      const { endDate } = termDates(today, 12);
      await runBillingRenewals(db, paymentProviders(gateway()), day(addMonths(today, 11)));
      const credits = (await orgState(organizationId)).credits;
      expect(credits.activeCredits).toBe(12 * starter.monthlyCredits);
      expect(credits.renewDate).toBe(endDate);
    });

    it('charges the next year on the renewal date, once', async () => {
      const { organizationId, pm } = await subscribedOwner(VISA, { coupon: undefined });
      const { renewableAt } = termDates(today, 12);
      const next = termDates(renewableAt, 12);
      const runs = await Promise.all([
        runBillingRenewals(db, paymentProviders(gateway()), day(renewableAt)),
        runBillingRenewals(db, paymentProviders(gateway()), day(renewableAt)),
      ]);
      expect(runs.map((r) => r.renewed).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
      await runBillingRenewals(db, paymentProviders(gateway()), day(renewableAt));
      const state = await orgState(organizationId);
      expect(state.subscriptions[0]).toMatchObject({ status: 'active', startDate: renewableAt, renewableAt: next.renewableAt, renewalFailures: 0 });
      expect(state.organization.renewableAt?.toISOString().slice(0, 10)).toBe(next.renewableAt);
      expect(state.credits).toMatchObject({
        startDate: renewableAt,
        endDate: next.endDate,
        activeCredits: starter.monthlyCredits,
        usedCredits: 0,
        renewDate: next.renewDate,
      });
      expect(state.invoices.map((i) => [i.status, i.amount, i.periodStart])).toEqual([
        ['paid', starter.pricePerYear, today],
        ['paid', starter.pricePerYear, renewableAt],
      ]);
      expect(await db.selectFrom('gatewayCharges').select('id').where('paymentMethodId', '=', pm).where('status', '=', 'succeeded').execute()).toHaveLength(2);
    });

    it('retries a failed renewal on days 1, 3 and 7, then makes the subscription inactive', async () => {
      const { organizationId, pm } = await subscribedOwner();
      // The card runs dry during the year.
      await db.updateTable('gatewayCards').set({ outcome: 'insufficient_funds' }).where('id', '=', pm).execute();
      const { renewableAt } = termDates(today, 12);
      const plus = (days: number) => {
        const d = new Date(`${renewableAt}T00:00:00Z`);
        d.setUTCDate(d.getUTCDate() + days);
        return d.toISOString().slice(0, 10);
      };
      const steps: [string, number, string][] = [
        [renewableAt, 1, 'past_due'],
        [renewableAt, 1, 'past_due'], // the same day again: no new attempt
        [plus(1), 2, 'past_due'],
        [plus(2), 2, 'past_due'],
        [plus(3), 3, 'past_due'],
        [plus(7), 4, 'ended'],
      ];
      for (const [date, failures, status] of steps) {
        await runBillingRenewals(db, paymentProviders(gateway()), day(date));
        const subscription = (await orgState(organizationId)).subscriptions[0]!;
        expect([date, subscription.renewalFailures, subscription.status]).toEqual([date, failures, status]);
      }
      const state = await orgState(organizationId);
      expect(state.organization.renewableAt).toBeNull();
      expect(state.credits.renewable).toBe(false);
      expect(state.subscriptions[0]!.failureMessage).toBe('Your card has insufficient funds.');
      expect(state.invoices.filter((i) => i.status === 'failed')).toHaveLength(4);
      expect(await db.selectFrom('gatewayCharges').select('id').where('paymentMethodId', '=', pm).execute()).toHaveLength(5);
    });

    it('ends a cancelled subscription at its term instead of charging', async () => {
      const { organizationId, headers, pm } = await subscribedOwner();
      expect((await call('DELETE', `/organizations/${organizationId}/subscriptions`, headers)).statusCode).toBe(204);
      const { renewableAt } = termDates(today, 12);
      const report = await runBillingRenewals(db, paymentProviders(gateway()), day(renewableAt));
      expect(report.ended).toBeGreaterThanOrEqual(1);
      const state = await orgState(organizationId);
      expect(state.subscriptions[0]!.status).toBe('ended');
      expect(state.organization.renewableAt).toBeNull();
      expect(await db.selectFrom('gatewayCharges').select('id').where('paymentMethodId', '=', pm).execute()).toHaveLength(1);
      // Then the owner may buy again.
      const card = await addCard(headers);
      expect((await call('POST', `/organizations/${organizationId}/subscriptions`, headers, purchaseBody(card))).statusCode).toBe(201);
    });

    it('never charges a deleted organization again: its subscription is cancelled with it', async () => {
      const { organizationId, pm } = await subscribedOwner();
      expect((await call('DELETE', `/organizations/${organizationId}`, as.ADMIN)).statusCode).toBe(204);
      expect((await call('GET', `/organizations/${organizationId}/subscriptions`, as.ADMIN)).statusCode).toBe(404);
      const { renewableAt } = termDates(today, 12);
      await runBillingRenewals(db, paymentProviders(gateway()), day(renewableAt));
      await runBillingRenewals(db, paymentProviders(gateway()), day(addMonths(renewableAt, 12)));
      expect(await db.selectFrom('gatewayCharges').select('id').where('paymentMethodId', '=', pm).execute()).toHaveLength(1);
      const state = await orgState(organizationId);
      expect(state.subscriptions[0]!.status).toBe('ended');
      expect(state.credits.renewable).toBe(false);
    });

    it('a cancellation that lands while the renewal charge is under way wins, and the charge is refunded', async () => {
      const { organizationId, headers } = await subscribedOwner();
      const { renewableAt } = termDates(today, 12);
      // A gateway whose charge answers only after the owner has cancelled (a slow Stripe call).
      const real = gateway();
      let refunded: string | null = null;
      const slow = Object.assign(Object.create(real) as typeof real, {
        charge: async (input: Parameters<typeof real.charge>[0]) => {
          const result = await real.charge(input);
          expect((await call('DELETE', `/organizations/${organizationId}/subscriptions`, headers)).statusCode).toBe(204);
          return result;
        },
        refund: async (paymentId: string) => {
          refunded = paymentId;
          return real.refund(paymentId);
        },
      });
      await runBillingRenewals(db, paymentProviders(slow), day(renewableAt));
      const state = await orgState(organizationId);
      expect(state.subscriptions[0]).toMatchObject({ isCancelled: true, renewableAt });
      expect(state.invoices.filter((i) => i.status === 'paid')).toHaveLength(1);
      expect(refunded).not.toBeNull();
    });

    it('finishes a purchase interrupted after the charge, without charging again', async () => {
      const owner = await newOwner(server.app);
      const pm = await addCard(owner.headers);
      const path = `/organizations/${owner.organizationId}/subscriptions`;
      const key = { ...owner.headers, 'idempotency-key': `interrupted-${owner.organizationId}` };
      expect((await call('POST', path, key, purchaseBody(pm))).statusCode).toBe(201);
      // As if the process died between the charge and the recording transaction.
      const row = (await orgState(owner.organizationId)).subscriptions[0]!;
      await db.deleteFrom('invoices').where('subscriptionId', '=', row.id).execute();
      await db.updateTable('subscriptions').set({ status: 'pending' }).where('id', '=', row.id).execute();
      await db.updateTable('organizations').set({ renewableAt: null }).where('id', '=', owner.organizationId).execute();
      const later = new Date(Date.now() + 20 * 60_000);
      expect((await runBillingRenewals(db, paymentProviders(gateway()), later)).resumed).toBe(1);
      const state = await orgState(owner.organizationId);
      expect(state.subscriptions[0]!.status).toBe('active');
      expect(state.invoices).toHaveLength(1);
      expect(await db.selectFrom('gatewayCharges').select('id').where('paymentMethodId', '=', pm).execute()).toHaveLength(1);
    });
  });
});

describe('migration 0009-billing', () => {
  it('goes down to nothing of its own and up again', async () => {
    const { migrateToLatest } = await import('../../server/migrations/index.ts');
    const migration = await import('../../server/migrations/0009-billing.ts');
    const database = await connectDatabase({ databaseUrl: null, dataDir: '', inMemory: true });
    try {
      await migrateToLatest(database);
      const names = async () => (await database.introspection.getTables()).map((t) => t.name).sort();
      const { ensureBillingSchema } = await import('./billing-support.ts');
      await ensureBillingSchema(database);
      const all = await names();
      const billingTables = [
        'billing_customers',
        'billing_events',
        'coupon_redemptions',
        'coupons',
        'gateway_cards',
        'gateway_charges',
        'invoices',
        'payment_methods',
        'payment_plans',
        'subscriptions',
      ];
      expect(all).toEqual(expect.arrayContaining(billingTables));
      await migration.down(database as never);
      expect(await names()).toEqual(all.filter((name) => !billingTables.includes(name)));
      await migration.up(database as never);
      expect(await names()).toEqual(all);
      const plans = await database.selectFrom('paymentPlans').select('name').orderBy('sortOrder').execute();
      expect(plans.map((p) => p.name)).toEqual(['Starter', 'Growth', 'Studio']);
      // Codes are unique without regard to case.
      await database.insertInto('coupons').values({ code: 'Spring', percentOff: 10, amountOff: null, validUntil: null, maxRedemptions: null }).execute();
      await expect(
        database.insertInto('coupons').values({ code: 'SPRING', percentOff: 5, amountOff: null, validUntil: null, maxRedemptions: null }).execute(),
      ).rejects.toThrow();
      await expect(
        database.insertInto('coupons').values({ code: 'BOTH', percentOff: 5, amountOff: 100, validUntil: null, maxRedemptions: null }).execute(),
      ).rejects.toThrow();
      const { seedBillingDemo } = await import('../../server/billing/seed.ts');
      await seedBillingDemo(database);
      expect((await database.selectFrom('coupons').select('code').orderBy('code').execute()).map((c) => c.code)).toEqual(['LAUNCH100', 'Spring', 'WELCOME10']);
    } finally {
      await database.destroy();
    }
  });
});
