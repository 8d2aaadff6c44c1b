import type { FastifyInstance } from 'fastify';
import { ORGANIZATION_MESSAGES } from '../../../src/domain/organization-rules.ts';
import { conflict, notFound } from '../../http-error.ts';
import { organizationAdminRepo } from '../../repositories/organization-admin.ts';
import { organizationsRepo } from '../../repositories/organizations.ts';
import { usersRepo } from '../../repositories/users.ts';
import { requireStaff } from '../../services/staff-access.ts';
import { idParam } from '../params.ts';

export default async function adminLoginRoute(app: FastifyInstance) {
  // A§2 Log In As: a token for the organization's owner that names the admin as impersonator.
  app.get('/organizations/:id/admin/login', async (request) => {
    const { user: admin } = await requireStaff(request, { managers: true });
    const id = idParam(request.params);
    const organization = await organizationsRepo(app.ctx.db).findById(id);
    if (!organization) throw notFound();
    const ownerRow = await organizationAdminRepo(app.ctx.db).row(id);
    const owner = ownerRow?.ownerId ? await usersRepo(app.ctx.db).findById(ownerRow.ownerId) : undefined;
    if (!owner?.isEnabled) throw conflict(ORGANIZATION_MESSAGES.noOwner);
    await organizationAdminRepo(app.ctx.db).recordImpersonation(admin.id, id);
    request.log.info({ adminId: admin.id, organizationId: id, ownerId: owner.id }, 'admin signed in as organization');
    return { token: await app.ctx.tokens.sign({ userId: owner.id, impersonatorId: admin.id, sessionVersion: owner.sessionVersion, impersonatorSessionVersion: admin.sessionVersion }), organizationId: id };
  });
}
