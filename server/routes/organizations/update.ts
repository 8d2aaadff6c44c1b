import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/customers.ts';
import { deleteOrganization, requireOrganization, updateOrganizationField } from '../../services/organization-admin.ts';
import { route } from '../operation-route.ts';

export default async function organizationUpdateRoutes(app: FastifyInstance) {
  // A§7: one field at a time — onboarding complete, assets link, tracking code or review period.
  route(app, operations.updateOrganization, async ({ params, body }) => {
    const organization = await requireOrganization(app.ctx.db, params.id);
    return updateOrganizationField(app.ctx.db, organization, body);
  });

  route(app, operations.deleteOrganization, async ({ params }, request) => {
    await deleteOrganization(app.ctx.db, params.id);
    request.log.info({ organizationId: params.id }, 'organization deleted');
  });
}
