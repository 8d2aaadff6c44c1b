import type { FastifyInstance } from 'fastify';
import { OrganizationListQueryStruct, type OrganizationRow } from '../../../src/domain/contract/customers.ts';
import { parse } from '../../http-error.ts';
import { organizationAdminRepo } from '../../repositories/organization-admin.ts';
import { organizationRowDto } from '../../services/organization-view.ts';

export default async function organizationListRoute(app: FastifyInstance) {
  // A§2 customers list and onboarding tabs (statusId); sorted and paged in SQL.
  app.get('/organizations', { config: { access: 'managers' } }, async (request): Promise<OrganizationRow[]> => {
    const query = parse(OrganizationListQueryStruct, request.query);
    const rows = await organizationAdminRepo(app.ctx.db).list(query);
    return rows.map(organizationRowDto);
  });
}
