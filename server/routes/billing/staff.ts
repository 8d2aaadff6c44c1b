import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/billing.ts';
import { billingCatalog } from '../../billing/catalog.ts';
import { route } from '../operation-route.ts';

/**
 * Staff's plans and coupons (docs/api.md "Subscriptions and billing"): SUPERADMIN and ADMIN
 * only, not through an impersonation. The public side (GET payment-plans, the coupon check)
 * is in ./index.ts.
 */
export default async function staffBillingRoutes(app: FastifyInstance) {
  const catalog = billingCatalog(app.ctx.db);

  route(app, operations.listStaffPlans, async () => catalog.plans());

  route(app, operations.createPlan, async ({ body }) => catalog.createPlan(body));

  route(app, operations.updatePlan, async ({ params, body }) => catalog.updatePlan(params.id, body));

  route(app, operations.listCoupons, async () => catalog.coupons());

  route(app, operations.createCoupon, async ({ body }) => catalog.createCoupon(body));

  route(app, operations.updateCoupon, async ({ params, body }) => catalog.updateCoupon(params.code, body));
}
