import type { FastifyInstance } from 'fastify';
import { UpdateCreditsBodyStruct, type CreditDetail } from '../../../src/domain/contract/customers.ts';
import { businessToday } from '../../../src/domain/business-calendar.ts';
import { ORGANIZATION_MESSAGES } from '../../../src/domain/organization-rules.ts';
import { nextRenewDate } from '../../../src/domain/subscription.ts';
import { badRequest, conflict, notFound, parse } from '../../http-error.ts';
import { authenticate } from '../../plugins/auth.ts';
import { organizationAdminRepo } from '../../repositories/organization-admin.ts';
import { organizationsRepo } from '../../repositories/organizations.ts';
import { creditDetailDto } from '../../services/organization-view.ts';
import { assertOrganizationVisible, requireStaff } from '../../services/staff-access.ts';
import type { Db } from '../../db/connect.ts';
import { idParam } from '../params.ts';

async function readCredits(db: Db, id: number): Promise<CreditDetail> {
  const organizations = organizationsRepo(db);
  const organization = await organizations.findById(id);
  const credits = await organizations.credits(id);
  if (!organization || !credits) throw notFound();
  return creditDetailDto(organization, credits);
}

export default async function organizationCreditsRoutes(app: FastifyInstance) {
  // C§7 / A§7: { data: { credits } } for the organization's members and for staff.
  app.get('/organizations/:id/credits', async (request) => {
    const auth = await authenticate(request);
    const id = idParam(request.params);
    assertOrganizationVisible(auth, id);
    return { data: { credits: await readCredits(app.ctx.db, id) } };
  });

  app.put('/organizations/:id/credits', async (request) => {
    await requireStaff(request, { managers: true });
    const id = idParam(request.params);
    const current = await readCredits(app.ctx.db, id);
    const body = parse(UpdateCreditsBodyStruct, request.body);
    if (body.endDate < body.startDate) throw badRequest(ORGANIZATION_MESSAGES.endBeforeStart, { fields: { endDate: ORGANIZATION_MESSAGES.endBeforeStart } });
    if (body.credits < current.usedCredits) {
      const message = ORGANIZATION_MESSAGES.creditsBelowUsed(current.usedCredits);
      throw badRequest(message, { fields: { credits: message } });
    }
    const plan = { startDate: body.startDate, endDate: body.endDate, intervalMonths: body.interval, renewable: body.renewable };
    const refused = await organizationAdminRepo(app.ctx.db).updateCredits(
      id,
      { ...plan, activeCredits: body.credits, creditsPerInterval: body.creditsPerInterval, renewDate: nextRenewDate(plan, businessToday()) },
      body.storage,
    );
    // Credits were used between the read above and the write: the same rule, now a conflict.
    if (refused) {
      const message = ORGANIZATION_MESSAGES.creditsBelowUsed(refused.usedCredits);
      throw conflict(message, { fields: { credits: message } });
    }
    request.log.info({ organizationId: id, credits: body.credits }, 'credits updated');
    return { data: { credits: await readCredits(app.ctx.db, id) } };
  });
}
