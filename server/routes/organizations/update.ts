import type { FastifyInstance } from 'fastify';
import { UpdateOrganizationBodyStruct, type OrganizationFields } from '../../../src/domain/contract/customers.ts';
import { parse } from '../../http-error.ts';
import { deleteOrganization, requireOrganization, updateOrganizationField } from '../../services/organization-admin.ts';
import { idParam } from '../params.ts';

export default async function organizationUpdateRoutes(app: FastifyInstance) {
  // A§7: one field at a time — onboarding complete, assets link, tracking code or review period.
  app.patch('/organizations/:id', { config: { access: 'managers' } }, async (request): Promise<OrganizationFields> => {
    const organization = await requireOrganization(app.ctx.db, idParam(request.params));
    const body = parse(UpdateOrganizationBodyStruct, request.body);
    return updateOrganizationField(app.ctx.db, organization, body);
  });

  app.delete('/organizations/:id', { config: { access: 'managers' } }, async (request, reply) => {
    const id = idParam(request.params);
    await deleteOrganization(app.ctx.db, id);
    request.log.info({ organizationId: id }, 'organization deleted');
    return reply.code(204).send();
  });
}
