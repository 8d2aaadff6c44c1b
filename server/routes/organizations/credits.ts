import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/customers.ts';
import { organizationCredits, updateCredits } from '../../services/organization-admin.ts';
import { route } from '../operation-route.ts';

export default async function organizationCreditsRoutes(app: FastifyInstance) {
  // C§7 / A§7: { data: { credits } } for the organization's members and for staff.
  route(app, operations.getCredits, async ({ params }) => ({ data: { credits: await organizationCredits(app.ctx.db, params.id) } }));

  route(app, operations.updateCredits, async ({ params, body }, request) => {
    const current = await organizationCredits(app.ctx.db, params.id);
    const credits = await updateCredits(app.ctx.db, current, body);
    request.log.info({ organizationId: params.id, credits: body.credits }, 'credits updated');
    return { data: { credits } };
  });
}
