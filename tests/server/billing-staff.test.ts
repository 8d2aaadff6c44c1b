import { validate, type Struct } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, CATALOG_MESSAGES } from '../../src/domain/billing.ts';
import { ClientConfigStruct } from '../../src/domain/contract/auth.ts';
import {
  PaymentPlanListStruct,
  StaffCouponListStruct,
  StaffCouponStruct,
  StaffPlanListStruct,
  StaffPlanStruct,
  SubscriptionStruct,
} from '../../src/domain/contract/billing.ts';
import { OrganizationRowListStruct, StaffOrganizationStruct } from '../../src/domain/contract/customers.ts';
import { DATABASES, signIn, type TestServer } from './harness.ts';
import { VALID_BILLING, VALID_SHIPPING, newOwner, startBillingServer } from './billing-support.ts';
import type { Db } from '../../server/db/connect.ts';

type Headers = Record<string, string>;
type Json = Record<string, unknown>;

const PLAN = {
  name: 'Agency',
  monthlyCredits: 12,
  storage: 10,
  pricePerMonth: 249_900,
  pricePerYear: 2_998_800,
  currency: 'usd',
  termMonths: 12,
  kitType: 'Agency kit',
};
const COUPON = { code: 'spring-25', percentOff: 25, amountOff: null, validUntil: null, maxRedemptions: null };

/** Staff's plans and coupons, and what staff see of a subscription (issue 11). */
describe.each(DATABASES)('plans and coupons for staff on $name', ({ url }) => {
  let server: TestServer;
  let db: Db;
  const as: Record<'SUPERADMIN' | 'ADMIN' | 'EDITOR' | 'OWNER' | 'USER' | 'IMPERSONATING', Headers> = {} as never;
  let demoId: number;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, headers: Headers = {}, payload?: unknown) =>
    server.app.inject({ method, url: `/api/v1${path}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const fieldsOf = (response: { json: <T>() => T }) => response.json<{ fields: Record<string, string> }>().fields;
  const shapeProblem = <T, S>(value: unknown, struct: Struct<T, S>) => validate(value, struct)[0]?.message;

  async function buy(planId: number, coupon?: string) {
    const owner = await newOwner(server.app, 'Staff billing');
    const card = await call('POST', '/payment-methods', owner.headers, { number: '4242424242424242', expMonth: 12, expYear: 2035, cvc: '123' });
    expect(card.statusCode).toBe(201);
    const paymentMethodId = card.json<{ paymentMethodId: string }>().paymentMethodId;
    const response = await call('POST', `/organizations/${owner.organizationId}/subscriptions`, owner.headers, {
      paymentPlanId: planId,
      paymentMethodId,
      coupon,
      billing: VALID_BILLING,
      shipping: VALID_SHIPPING,
    });
    return { ...owner, paymentMethodId, response };
  }

  beforeAll(async () => {
    server = await startBillingServer(url);
    db = server.db;
    for (const role of ['SUPERADMIN', 'ADMIN', 'EDITOR', 'OWNER', 'USER'] as const)
      as[role] = await signIn(server.app, `${role.toLowerCase()}@demo.cutdesk.test`);
    demoId = (await db.selectFrom('organizations').select('id').where('name', '=', 'Demo Studio').executeTakeFirstOrThrow()).id;
    const impersonation = await call('GET', `/organizations/${demoId}/admin/login`, as.ADMIN);
    expect(impersonation.statusCode).toBe(200);
    as.IMPERSONATING = { authorization: `Bearer ${impersonation.json<{ token: string }>().token}` };
  });

  afterAll(async () => server?.close());

  it('lets only SUPERADMIN and ADMIN manage plans and coupons', async () => {
    const plan = (await call('GET', '/admin/payment-plans', as.ADMIN)).json<{ id: number }[]>()[0]!;
    const requests: ['GET' | 'POST' | 'PUT', string, unknown][] = [
      ['GET', '/admin/payment-plans', undefined],
      ['POST', '/admin/payment-plans', PLAN],
      ['PUT', `/admin/payment-plans/${plan.id}`, PLAN],
      ['GET', '/admin/coupons', undefined],
      ['POST', '/admin/coupons', { ...COUPON, code: 'NEVER-MADE' }],
      ['PUT', '/admin/coupons/WELCOME10', COUPON],
    ];
    for (const [method, path, body] of requests) {
      expect((await call(method, path, {}, body)).statusCode, `${method} ${path} anonymous`).toBe(401);
      for (const role of ['OWNER', 'USER', 'EDITOR', 'IMPERSONATING'] as const) {
        expect((await call(method, path, as[role], body)).statusCode, `${method} ${path} ${role}`).toBe(403);
      }
    }
    // Nothing was changed by the refused calls.
    expect(await db.selectFrom('paymentPlans').select('id').where('name', '=', 'Agency').execute()).toEqual([]);
    expect(await db.selectFrom('coupons').select('id').where('code', '=', 'NEVER-MADE').execute()).toEqual([]);
    for (const role of ['SUPERADMIN', 'ADMIN'] as const) {
      expect((await call('GET', '/admin/payment-plans', as[role])).statusCode).toBe(200);
      expect((await call('GET', '/admin/coupons', as[role])).statusCode).toBe(200);
    }
  });

  describe('plans', () => {
    it('lists every plan with its running subscriptions, in the contract shape', async () => {
      const response = await call('GET', '/admin/payment-plans', as.ADMIN);
      expect(response.statusCode).toBe(200);
      expect(shapeProblem(response.json(), StaffPlanListStruct)).toBeUndefined();
      const plans = response.json<{ name: string; retired: boolean; subscriptions: number; id: number }[]>();
      expect(plans.map((p) => p.name).slice(0, 3)).toEqual(['Starter', 'Growth', 'Studio']);
      const starter = plans.find((p) => p.name === 'Starter')!;
      const before = starter.subscriptions;
      expect((await buy(starter.id)).response.statusCode).toBe(201);
      const after = (await call('GET', '/admin/payment-plans', as.ADMIN)).json<typeof plans>().find((p) => p.id === starter.id)!;
      expect(after.subscriptions).toBe(before + 1);
    });

    it('creates a plan that is sold at once, and edits it', async () => {
      const created = await call('POST', '/admin/payment-plans', as.SUPERADMIN, PLAN);
      expect(created.statusCode, created.body).toBe(201);
      expect(shapeProblem(created.json(), StaffPlanStruct)).toBeUndefined();
      const plan = created.json<{ id: number } & typeof PLAN>();
      expect(plan).toEqual({ ...PLAN, id: expect.any(Number), retired: false, subscriptions: 0 });
      const publicPlans = (await call('GET', '/payment-plans')).json<{ id: number; name: string }[]>();
      expect(shapeProblem(publicPlans, PaymentPlanListStruct)).toBeUndefined();
      expect(publicPlans.at(-1)).toMatchObject({ id: plan.id, name: 'Agency', storage: 10 });

      const edited = await call('PUT', `/admin/payment-plans/${plan.id}`, as.ADMIN, {
        ...PLAN,
        name: ' Agency Plus ',
        pricePerMonth: 258_334,
        pricePerYear: 3_100_000,
        kitType: null,
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({ id: plan.id, name: 'Agency Plus', pricePerYear: 3_100_000, kitType: null, retired: false });
      expect((await call('PUT', '/admin/payment-plans/999999', as.ADMIN, PLAN)).statusCode).toBe(404);
      expect((await call('PUT', '/admin/payment-plans/abc', as.ADMIN, PLAN)).statusCode).toBe(404);
    });

    it('answers 400 with a message per field for a bad plan', async () => {
      const bad = await call('POST', '/admin/payment-plans', as.ADMIN, {
        ...PLAN,
        name: ' ',
        monthlyCredits: 0,
        storage: -1,
        pricePerYear: 1.5,
        currency: 'USD',
        termMonths: 99,
      });
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(fieldsOf(bad)).sort()).toEqual(['currency', 'monthlyCredits', 'name', 'pricePerYear', 'storage', 'termMonths']);
      // What is charged (the yearly price) and what the pricing page shows a month must agree; the
      // currency must be one a payment service knows.
      const mismatch = await call('POST', '/admin/payment-plans', as.ADMIN, { ...PLAN, pricePerMonth: 100, pricePerYear: 0 });
      expect(mismatch.statusCode).toBe(400);
      expect(fieldsOf(mismatch)).toEqual({ pricePerYear: CATALOG_MESSAGES.yearlyPrice(100, 'usd') });
      // In the currency's units, not cents.
      expect(fieldsOf(mismatch).pricePerYear).toMatch(/^Must be 12 × the monthly price \(\$12\.00\):/);
      const euros = await call('POST', '/admin/payment-plans', as.ADMIN, { ...PLAN, currency: 'eur', pricePerMonth: 104_125, pricePerYear: 1 });
      expect(fieldsOf(euros).pricePerYear).toContain('(€12,495.00)');
      const unknownCurrency = await call('POST', '/admin/payment-plans', as.ADMIN, { ...PLAN, currency: 'xxz' });
      expect(unknownCurrency.statusCode).toBe(400);
      expect(fieldsOf(unknownCurrency)).toEqual({ currency: CATALOG_MESSAGES.currencyUnknown });
      const missing = await call('POST', '/admin/payment-plans', as.ADMIN, {});
      expect(missing.statusCode).toBe(400);
      expect(Object.keys(fieldsOf(missing))).toEqual(
        expect.arrayContaining(['name', 'monthlyCredits', 'storage', 'pricePerMonth', 'pricePerYear', 'currency', 'termMonths', 'kitType']),
      );
      // A plan with running subscriptions keeps its currency: renewals charge in it.
      const starter = (await call('GET', '/admin/payment-plans', as.ADMIN))
        .json<({ id: number; subscriptions: number } & typeof PLAN)[]>()
        .find((p) => p.name === 'Starter')!;
      expect(starter.subscriptions).toBeGreaterThan(0);
      const { id: _id, subscriptions: _subscriptions, retired: _retired, ...body } = starter as typeof starter & { retired: boolean };
      const currency = await call('PUT', `/admin/payment-plans/${starter.id}`, as.ADMIN, { ...body, currency: 'eur' });
      expect(currency.statusCode).toBe(400);
      expect(fieldsOf(currency)).toEqual({ currency: CATALOG_MESSAGES.currencyFixed });
    });

    it('lists plans by price, cheapest first, not in the order they were made (pricing page and staff alike)', async () => {
      const solo = (await call('POST', '/admin/payment-plans', as.ADMIN, { ...PLAN, name: 'Solo', pricePerMonth: 19_900, pricePerYear: 238_800 })).json<{
        id: number;
      }>();
      const names = (plans: { name: string }[]) => plans.map((p) => p.name).filter((name) => ['Solo', 'Starter', 'Growth', 'Studio'].includes(name));
      expect(names((await call('GET', '/payment-plans')).json())).toEqual(['Solo', 'Starter', 'Growth', 'Studio']);
      const staff = (await call('GET', '/admin/payment-plans', as.ADMIN)).json<{ name: string; pricePerMonth: number }[]>();
      expect(names(staff)).toEqual(['Solo', 'Starter', 'Growth', 'Studio']);
      expect(staff.map((p) => p.pricePerMonth)).toEqual(staff.map((p) => p.pricePerMonth).sort((a, b) => a - b));
      // Out of the way of the tests after this one.
      expect(
        (await call('PUT', `/admin/payment-plans/${solo.id}`, as.ADMIN, { ...PLAN, name: 'Solo', pricePerMonth: 19_900, pricePerYear: 238_800, retired: true }))
          .statusCode,
      ).toBe(200);
    });

    it('retires a plan: no longer listed nor sold, its subscriptions stay; and brings it back', async () => {
      const plan = (await call('POST', '/admin/payment-plans', as.ADMIN, { ...PLAN, name: 'Short-lived' })).json<{ id: number }>();
      const subscribed = await buy(plan.id);
      expect(subscribed.response.statusCode).toBe(201);
      const retired = await call('PUT', `/admin/payment-plans/${plan.id}`, as.ADMIN, { ...PLAN, name: 'Short-lived', retired: true });
      expect(retired.json()).toMatchObject({ retired: true, subscriptions: 1 });
      expect((await call('GET', '/payment-plans')).json<{ id: number }[]>().map((p) => p.id)).not.toContain(plan.id);
      expect((await call('GET', '/admin/payment-plans', as.ADMIN)).json<{ id: number }[]>().map((p) => p.id)).toContain(plan.id);
      const refused = await buy(plan.id);
      expect(refused.response.statusCode).toBe(400);
      expect(refused.response.json()).toMatchObject({ fields: { paymentPlanId: BILLING_MESSAGES.planUnavailable } });
      // The subscription bought before keeps running.
      expect((await call('GET', `/organizations/${subscribed.organizationId}/subscriptions`, subscribed.headers)).json()).toMatchObject([
        { status: 'active', plan: { id: plan.id } },
      ]);
      // Without `retired` an edit keeps the plan retired; `retired: false` brings it back.
      expect((await call('PUT', `/admin/payment-plans/${plan.id}`, as.ADMIN, { ...PLAN, name: 'Short-lived' })).json()).toMatchObject({ retired: true });
      expect((await call('PUT', `/admin/payment-plans/${plan.id}`, as.ADMIN, { ...PLAN, name: 'Short-lived', retired: false })).json()).toMatchObject({
        retired: false,
      });
      expect((await call('GET', '/payment-plans')).json<{ id: number }[]>().map((p) => p.id)).toContain(plan.id);
    });
  });

  describe('coupons', () => {
    it('creates a coupon with its code upper-cased, and refuses the same code in any case (409)', async () => {
      const created = await call('POST', '/admin/coupons', as.ADMIN, { ...COUPON, code: ' spring-25 ' });
      expect(created.statusCode, created.body).toBe(201);
      expect(shapeProblem(created.json(), StaffCouponStruct)).toBeUndefined();
      expect(created.json()).toEqual({
        code: 'SPRING-25',
        percentOff: 25,
        amountOff: null,
        validUntil: null,
        maxRedemptions: null,
        timesRedeemed: 0,
        retired: false,
      });
      const again = await call('POST', '/admin/coupons', as.SUPERADMIN, { ...COUPON, code: 'Spring-25', percentOff: 10 });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ message: CATALOG_MESSAGES.codeExists, fields: { code: CATALOG_MESSAGES.codeExists } });
      const list = await call('GET', '/admin/coupons', as.ADMIN);
      expect(shapeProblem(list.json(), StaffCouponListStruct)).toBeUndefined();
      expect(list.json<{ code: string }[]>().map((c) => c.code)).toEqual(expect.arrayContaining(['SPRING-25', 'WELCOME10', 'LAUNCH100']));
      // Customers can use it, in any case.
      const owner = await newOwner(server.app);
      expect((await call('GET', '/payment-plans/coupons/spring-25', owner.headers)).json()).toEqual({
        code: 'SPRING-25',
        percentOff: 25,
        amountOff: null,
        validUntil: null,
      });
    });

    it('answers 400 with fields: no code, a bad code or date, both discounts or none', async () => {
      const post = (body: Json) => call('POST', '/admin/coupons', as.ADMIN, { ...COUPON, ...body });
      const noCode = await post({ code: undefined });
      expect(noCode.statusCode).toBe(400);
      expect(fieldsOf(noCode)).toEqual({ code: CATALOG_MESSAGES.codeRequired });
      expect(fieldsOf(await post({ code: 'two words' }))).toEqual({ code: CATALOG_MESSAGES.codeShape });
      expect(fieldsOf(await post({ code: 'DATED', validUntil: '2026-02-30' }))).toEqual({ validUntil: CATALOG_MESSAGES.dateInvalid });
      const both = await post({ code: 'BOTH', percentOff: 10, amountOff: 500 });
      expect(both.statusCode).toBe(400);
      expect(fieldsOf(both)).toEqual({ percentOff: CATALOG_MESSAGES.oneDiscount, amountOff: CATALOG_MESSAGES.oneDiscount });
      expect(fieldsOf(await post({ code: 'NONE', percentOff: null, amountOff: null }))).toEqual({
        percentOff: CATALOG_MESSAGES.oneDiscount,
        amountOff: CATALOG_MESSAGES.oneDiscount,
      });
      expect(Object.keys(fieldsOf(await post({ code: 'BIG', percentOff: 101, maxRedemptions: 0 }))).sort()).toEqual(['maxRedemptions', 'percentOff']);
      expect(await db.selectFrom('coupons').select('code').where('code', 'in', ['DATED', 'BOTH', 'NONE', 'BIG']).execute()).toEqual([]);
    });

    it('edits a coupon (its code stays), never below the redemptions made', async () => {
      await call('POST', '/admin/coupons', as.ADMIN, { ...COUPON, code: 'EDIT-ME', percentOff: null, amountOff: 5000, maxRedemptions: 5 });
      const starter = (await call('GET', '/payment-plans')).json<{ id: number; name: string }[]>().find((p) => p.name === 'Starter')!;
      expect((await buy(starter.id, 'edit-me')).response.statusCode).toBe(201);
      expect((await buy(starter.id, 'EDIT-ME')).response.statusCode).toBe(201);

      const edited = await call('PUT', '/admin/coupons/edit-me', as.ADMIN, { percentOff: 15, amountOff: null, validUntil: '2099-12-31', maxRedemptions: 2 });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toEqual({
        code: 'EDIT-ME',
        percentOff: 15,
        amountOff: null,
        validUntil: '2099-12-31',
        maxRedemptions: 2,
        timesRedeemed: 2,
        retired: false,
      });
      const below = await call('PUT', '/admin/coupons/EDIT-ME', as.ADMIN, { percentOff: 15, amountOff: null, validUntil: null, maxRedemptions: 1 });
      expect(below.statusCode).toBe(400);
      expect(fieldsOf(below)).toEqual({ maxRedemptions: CATALOG_MESSAGES.maxBelowRedeemed(2) });
      const renamed = await call('PUT', '/admin/coupons/EDIT-ME', as.ADMIN, {
        code: 'OTHER',
        percentOff: 15,
        amountOff: null,
        validUntil: null,
        maxRedemptions: null,
      });
      expect(renamed.statusCode).toBe(400);
      expect(fieldsOf(renamed)).toEqual({ code: CATALOG_MESSAGES.codeFixed });
      // The same code sent along is fine.
      expect(
        (await call('PUT', '/admin/coupons/EDIT-ME', as.ADMIN, { code: 'edit-me', percentOff: 15, amountOff: null, validUntil: null, maxRedemptions: null }))
          .statusCode,
      ).toBe(200);
      expect((await call('PUT', '/admin/coupons/NO-SUCH', as.ADMIN, COUPON)).statusCode).toBe(404);
      expect((await call('PUT', '/admin/coupons/bad%20code', as.ADMIN, COUPON)).statusCode).toBe(404);
    });

    it('refuses a retired coupon at the check and at purchase, and takes it back when revived', async () => {
      await call('POST', '/admin/coupons', as.ADMIN, { ...COUPON, code: 'RETIRE-ME' });
      const retired = await call('PUT', '/admin/coupons/RETIRE-ME', as.ADMIN, { ...COUPON, code: undefined, retired: true });
      expect(retired.json()).toMatchObject({ code: 'RETIRE-ME', retired: true });
      const owner = await newOwner(server.app);
      const check = await call('GET', '/payment-plans/coupons/RETIRE-ME', owner.headers);
      expect(check.statusCode).toBe(404);
      expect(check.json()).toMatchObject({ fields: { coupon: BILLING_MESSAGES.couponInvalid } });
      const starter = (await call('GET', '/payment-plans')).json<{ id: number; name: string; pricePerYear: number }[]>().find((p) => p.name === 'Starter')!;
      const refused = await buy(starter.id, 'RETIRE-ME');
      expect(refused.response.statusCode).toBe(400);
      expect(refused.response.json()).toMatchObject({ fields: { coupon: BILLING_MESSAGES.couponInvalid } });
      await call('PUT', '/admin/coupons/RETIRE-ME', as.ADMIN, { ...COUPON, code: undefined, retired: false });
      const bought = await buy(starter.id, 'RETIRE-ME');
      expect(bought.response.statusCode).toBe(201);
      expect(bought.response.json()).toMatchObject({ amount: starter.pricePerYear - Math.round(starter.pricePerYear * 0.25) });
      expect(shapeProblem(bought.response.json(), SubscriptionStruct)).toBeUndefined();
    });
  });

  describe('what staff see', () => {
    it('names the running plan on the organization and in the customers list, null without one', async () => {
      const growth = (await call('GET', '/payment-plans')).json<{ id: number; name: string }[]>().find((p) => p.name === 'Growth')!;
      const { organizationId, headers } = await buy(growth.id);
      const organization = await call('GET', `/organizations/${organizationId}`, as.ADMIN);
      expect(organization.statusCode).toBe(200);
      expect(shapeProblem(organization.json(), StaffOrganizationStruct)).toBeUndefined();
      expect(organization.json()).toMatchObject({ planName: 'Growth', subscriptionStatus: 'active' });
      const rows = async () => {
        const list = await call('GET', '/organizations?limit=100', as.ADMIN);
        expect(shapeProblem(list.json(), OrganizationRowListStruct)).toBeUndefined();
        return list.json<{ id: number; planName: string | null }[]>();
      };
      expect((await rows()).find((r) => r.id === organizationId)?.planName).toBe('Growth');
      // Demo Studio's subscription was set by staff (no plan bought): no plan name.
      expect((await call('GET', `/organizations/${demoId}`, as.ADMIN)).json()).toMatchObject({ planName: null });
      // Cancelled, it still runs to its end, on its plan.
      expect((await call('DELETE', `/organizations/${organizationId}/subscriptions`, headers)).statusCode).toBe(204);
      expect((await call('GET', `/organizations/${organizationId}`, as.ADMIN)).json()).toMatchObject({ planName: 'Growth', subscriptionStatus: 'canceled' });
      // Ended: no plan.
      await db.updateTable('subscriptions').set({ status: 'ended' }).where('organizationId', '=', organizationId).execute();
      expect((await call('GET', `/organizations/${organizationId}`, as.ADMIN)).json()).toMatchObject({ planName: null });
      expect((await rows()).find((r) => r.id === organizationId)?.planName ?? null).toBeNull();
    });
  });

  it('tells the web app which card form to use (embedded gateway here)', async () => {
    const response = await call('GET', '/client-config');
    expect(shapeProblem(response.json(), ClientConfigStruct)).toBeUndefined();
    expect(response.json()).toMatchObject({ payments: { provider: 'embedded', publishableKey: null } });
  });
});
