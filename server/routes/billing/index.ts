import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/billing.ts';
import { businessToday } from '../../../src/domain/business-calendar.ts';
import { isStaffRole } from '../../../src/domain/roles.ts';
import type { BillingConfig } from '../../billing/config.ts';
import { billingNotices } from '../../billing/notices.ts';
import type { PaymentProviders } from '../../billing/payment-provider.ts';
import { billingService } from '../../billing/service.ts';
import { createPaymentProviders } from '../../billing/setup.ts';
import { badRequest, notFound } from '../../http-error.ts';
import { perIpRouteLimit } from '../../services/abuse-guard.ts';
import { organizationsRepo } from '../../repositories/organizations.ts';
import { route } from '../operation-route.ts';
import staffBillingRoutes from './staff.ts';
import stripeWebhookRoute from './stripe-webhook.ts';

export interface BillingRoutesOptions {
  /** The gateways; by default the one STRIPE_SECRET_KEY selects (the embedded one without it). */
  providers?: PaymentProviders;
  /** Default: the loaded configuration's (`config.billing`, server/billing/config.ts). */
  billingConfig?: BillingConfig;
  /** Tests move the calendar; the server uses the real one. */
  now?: () => Date;
}

/**
 * Issue 11's calls (docs/api.md "Subscriptions and billing"): plans, coupon check, the embedded
 * gateway's card form, the organization's subscription and Stripe's webhook; staff's plans and
 * coupons are in ./staff.ts.
 */
export default async function billingRoutes(app: FastifyInstance, options: BillingRoutesOptions = {}) {
  const config = options.billingConfig ?? app.ctx.config.billing;
  const providers = options.providers ?? (await createPaymentProviders(app.ctx.db, config));
  const now = options.now ?? (() => new Date());
  // Receipts go out after a purchase commits (server/billing/notices.ts).
  const notices = billingNotices({ db: app.ctx.db, mailer: app.ctx.mailer, publicUrl: app.ctx.config.publicUrl, log: app.log });
  const service = billingService({ db: app.ctx.db, providers, log: app.log, notices, later: (name, task) => app.background.run(name, task) });
  const today = () => businessToday(now());

  await app.register(staffBillingRoutes);

  route(app, operations.listPlans, async () => service.plans());

  // Rate limited per address: coupon codes must not be guessable by trying them all.
  route(
    app,
    operations.checkCoupon,
    async ({ params }, request) => {
      const { user } = request.auth;
      return service.checkCoupon(user.organizationId!, params.code, today()); // access 'customer': a member of one
    },
    { config: perIpRouteLimit(app.ctx.config) },
  );

  // The embedded gateway's card form; with Stripe, Stripe.js tokenizes and this call does not exist.
  if (providers.default.name === 'embedded') {
    // Rate limited per address: a card form is where stolen numbers get tried out.
    route(
      app,
      operations.addCard,
      async ({ body }, request) => {
        const { user } = request.auth;
        return service.addCard(user.organizationId!, body as Record<string, unknown>, today());
      },
      { config: perIpRouteLimit(app.ctx.config) },
    );
  }

  route(app, operations.listSubscriptions, async ({ params: { id } }, request) => {
    const { auth } = request;
    // A deleted organization is gone for staff too (its subscription was cancelled with it).
    if (!(await organizationsRepo(app.ctx.db).findById(id))) throw notFound();
    // Billing addresses and phones are the owner's (and staff's) business, not every user's.
    const withDetails = auth.user.role === 'OWNER' || isStaffRole(auth.user.role);
    // An invoice's status is stored as text; server/repositories/billing-invoices.ts writes only the contract's three.
    return (await service.list(id, withDetails)) as operations.SubscriptionView[];
  });

  route(
    app,
    operations.createSubscription,
    async ({ params: { id }, body: input }, request, reply) => {
      const { user } = request.auth;
      const header = request.headers['idempotency-key'];
      const headerKey = typeof header === 'string' ? header : null;
      if (headerKey !== null && !/^[\w-]{8,100}$/.test(headerKey)) throw badRequest('The Idempotency-Key header must be 8 to 100 letters, digits, - or _.');
      const organization = await organizationsRepo(app.ctx.db).findById(id);
      if (!organization) throw notFound();
      const { subscription, replayed } = await service.purchase({
        organizationId: id,
        organizationName: organization.name,
        ownerEmail: user.email,
        paymentPlanId: input.paymentPlanId,
        paymentMethodId: input.paymentMethodId,
        coupon: input.coupon ?? null,
        billing: input.billing,
        shipping: input.shipping,
        idempotencyKey: headerKey ?? input.idempotencyKey ?? null,
        today: today(),
      });
      return reply.code(replayed ? 200 : 201).send(subscription);
    },
    { config: perIpRouteLimit(app.ctx.config) },
  );

  route(app, operations.cancelSubscription, async ({ params: { id } }) => {
    await service.cancel(id, today());
  });

  const stripe = providers.named('stripe');
  const webhookSecret = config.stripe?.webhookSecret ?? null;
  if (stripe && webhookSecret) await app.register(stripeWebhookRoute, { provider: stripe, webhookSecret });
}
