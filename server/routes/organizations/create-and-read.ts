import type { FastifyInstance } from 'fastify';
import * as customers from '../../../src/domain/contract/customers.ts';
import * as organizations from '../../../src/domain/contract/organizations.ts';
import { createOrganization } from '../../services/organization-admin.ts';
import { organizationFor } from '../../services/organization-view.ts';
import { route } from '../operation-route.ts';

export default async function organizationRoutes(app: FastifyInstance) {
  // Step 1 of registration: the new owner names the organization.
  route(app, organizations.createOrganization, async ({ body }, request) => createOrganization(app.ctx.db, request.auth.user, body.name));

  route(app, customers.getOrganization, async ({ params }, request) => organizationFor(app.ctx.db, request.auth, params.id));
}
