import type { FastifyInstance } from 'fastify';
import type { Updateable } from 'kysely';
import { UpdateOrganizationBodyStruct, type OrganizationFields } from '../../../src/domain/contract/customers.ts';
import { ORGANIZATION_MESSAGES, blankToNull } from '../../../src/domain/organization-rules.ts';
import { isSubscriptionActive } from '../../../src/domain/subscription.ts';
import type { OrganizationsTable } from '../../db/schema.ts';
import { badRequest, conflict, notFound, parse } from '../../http-error.ts';
import { organizationAdminRepo } from '../../repositories/organization-admin.ts';
import { organizationsRepo } from '../../repositories/organizations.ts';
import { requireStaff } from '../../services/staff-access.ts';
import { idParam } from '../params.ts';

export default async function organizationUpdateRoutes(app: FastifyInstance) {
  // A§7: one field at a time — onboarding complete, assets link, tracking code or review period.
  app.patch('/organizations/:id', async (request): Promise<OrganizationFields> => {
    await requireStaff(request, { managers: true });
    const id = idParam(request.params);
    const organization = await organizationsRepo(app.ctx.db).findById(id);
    if (!organization) throw notFound();
    const body = parse(UpdateOrganizationBodyStruct, request.body);
    const keys = Object.keys(body).filter((key) => body[key as keyof typeof body] !== undefined);
    if (keys.length !== 1) throw badRequest(ORGANIZATION_MESSAGES.oneField);

    const changes: Updateable<OrganizationsTable> = {};
    if (body.state !== undefined) {
      if (organization.statusId === 2) throw conflict(ORGANIZATION_MESSAGES.alreadyComplete);
      Object.assign(changes, { statusId: 2, state: body.state });
    } else if (body.assetsLink !== undefined) {
      changes.assetsLink = blankToNull(body.assetsLink);
    } else if (body.trackingCode !== undefined) {
      if (!isSubscriptionActive(organization.renewableAt?.toISOString() ?? null, organization.isCancelled)) {
        throw conflict(ORGANIZATION_MESSAGES.trackingNeedsSubscription, { fields: { trackingCode: ORGANIZATION_MESSAGES.trackingNeedsSubscription } });
      }
      changes.trackingCode = blankToNull(body.trackingCode);
    } else if (body.projectReviewPeriod !== undefined) {
      changes.projectReviewPeriod = body.projectReviewPeriod;
    }
    await organizationAdminRepo(app.ctx.db).update(id, changes);
    const updated = await organizationsRepo(app.ctx.db).findById(id);
    return {
      id,
      statusId: updated!.statusId,
      state: updated!.state,
      assetsLink: updated!.assetsLink,
      trackingCode: updated!.trackingCode,
      projectReviewPeriod: updated!.projectReviewPeriod,
    };
  });

  app.delete('/organizations/:id', async (request, reply) => {
    await requireStaff(request, { managers: true });
    const id = idParam(request.params);
    if (!(await organizationsRepo(app.ctx.db).findById(id))) throw notFound();
    await organizationAdminRepo(app.ctx.db).softDelete(id, new Date());
    request.log.info({ organizationId: id }, 'organization deleted');
    return reply.code(204).send();
  });
}
