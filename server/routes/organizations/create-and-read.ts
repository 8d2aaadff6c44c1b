import type { FastifyInstance } from 'fastify';
import type { StaffOrganization } from '../../../src/domain/contract/customers.ts';
import { CreateOrganizationBodyStruct, type Organization } from '../../../src/domain/contract/organizations.ts';
import { parse } from '../../http-error.ts';
import { createOrganization } from '../../services/organization-admin.ts';
import { organizationFor } from '../../services/organization-view.ts';
import { idParam } from '../params.ts';

export default async function organizationRoutes(app: FastifyInstance) {
  // Step 1 of registration: the new owner names the organization.
  app.post('/organizations', async (request, reply) => {
    const { name } = parse(CreateOrganizationBodyStruct, request.body);
    reply.code(201);
    return createOrganization(app.ctx.db, request.auth.user, name);
  });

  app.get('/organizations/:id', { config: { organizationParam: 'id' } }, async (request): Promise<Organization | StaffOrganization> => organizationFor(app.ctx.db, request.auth, idParam(request.params)));
}
