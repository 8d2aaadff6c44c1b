import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/customers.ts';
import { organizationAdminRepo } from '../../repositories/organization-admin.ts';
import { organizationRowDto } from '../../services/organization-view.ts';
import { route } from '../operation-route.ts';

export default async function organizationListRoute(app: FastifyInstance) {
  // A§2 customers list and onboarding tabs (statusId); sorted and paged in SQL.
  route(app, operations.listOrganizations, async ({ query }) => {
    const rows = await organizationAdminRepo(app.ctx.db).list(query);
    return rows.map(organizationRowDto);
  });
}
