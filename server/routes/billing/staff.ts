import type { FastifyInstance } from 'fastify';
import { billingCatalog } from '../../billing/catalog.ts';
import { idParam } from '../params.ts';

/**
 * Staff's plans and coupons (docs/api.md "Subscriptions and billing"): SUPERADMIN and ADMIN
 * only, not through an impersonation. The public side (GET payment-plans, the coupon check)
 * is in ./index.ts.
 */
export default async function staffBillingRoutes(app: FastifyInstance) {
  const catalog = billingCatalog(app.ctx.db);
  const managers = { config: { access: 'managers' as const } };

  app.get('/admin/payment-plans', managers, async () => catalog.plans());

  app.post('/admin/payment-plans', managers, async (request, reply) => {
    const plan = await catalog.createPlan(request.body);
    reply.code(201);
    return plan;
  });

  app.put('/admin/payment-plans/:id', managers, async (request) => catalog.updatePlan(idParam(request.params), request.body));

  app.get('/admin/coupons', managers, async () => catalog.coupons());

  app.post('/admin/coupons', managers, async (request, reply) => {
    const coupon = await catalog.createCoupon(request.body);
    reply.code(201);
    return coupon;
  });

  app.put('/admin/coupons/:code', managers, async (request) => catalog.updateCoupon((request.params as { code?: string }).code ?? '', request.body));
}
