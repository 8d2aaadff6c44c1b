import type { FastifyInstance } from 'fastify';
import type { StaffOrganization } from '../../../src/domain/contract/customers.ts';
import { CreateOrganizationBodyStruct, type Organization } from '../../../src/domain/contract/organizations.ts';
import { businessToday } from '../../../src/domain/business-calendar.ts';
import { creditStatus } from '../../../src/domain/credits.ts';
import { MESSAGES } from '../../../src/domain/messages.ts';
import { isStaffRole } from '../../../src/domain/roles.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { conflict, forbidden, notFound, parse } from '../../http-error.ts';
import { authenticate } from '../../plugins/auth.ts';
import { organizationsRepo } from '../../repositories/organizations.ts';
import { staffOrganizationDto } from '../../services/organization-view.ts';
import { idParam } from '../params.ts';

export default async function organizationRoutes(app: FastifyInstance) {
  // Step 1 of registration: the new owner names the organization.
  app.post('/organizations', async (request, reply) => {
    const { user } = await authenticate(request);
    const { name } = parse(CreateOrganizationBodyStruct, request.body);
    if (user.role !== 'OWNER') throw forbidden();
    if (user.organizationId !== null) throw conflict(MESSAGES.alreadyInOrganization);
    const organizations = organizationsRepo(app.ctx.db);
    const exists = () => conflict(MESSAGES.organizationExists, { fields: { name: MESSAGES.organizationExists } });
    if (await organizations.nameTaken(name)) throw exists();
    const organization = await organizations.createWithOwner(name, user.id).catch((error: unknown) => {
      throw isUniqueViolation(error) ? exists() : error;
    });
    // Another request of the same owner created one meanwhile.
    if (!organization) throw conflict(MESSAGES.alreadyInOrganization);
    reply.code(201);
    return { id: organization.id };
  });

  app.get('/organizations/:id', async (request): Promise<Organization | StaffOrganization> => {
    const { user, impersonatorId } = await authenticate(request);
    const id = idParam(request.params);
    // Another organization's data does not exist for a customer.
    if (!isStaffRole(user.role) && user.organizationId !== id) throw notFound();
    const organizations = organizationsRepo(app.ctx.db);
    const organization = await organizations.findById(id);
    const credits = await organizations.credits(id);
    if (!organization || !credits) throw notFound();
    const answer: Organization = {
      id: organization.id,
      name: organization.name,
      credits: {
        startDate: credits.startDate,
        endDate: credits.endDate,
        activeCredits: credits.activeCredits,
        usedCredits: credits.usedCredits,
        creditsPerInterval: credits.creditsPerInterval,
        interval: credits.intervalMonths,
        renewable: credits.renewable,
        renewDate: credits.renewDate,
        status: creditStatus(credits.startDate, credits.endDate, businessToday()),
      },
      storage: organization.storageTb,
      usedSpace: organization.usedSpace,
      status: { id: organization.statusId },
    };
    // Staff also get A§3's organization fields; customers keep the answer above.
    if (!isStaffRole(user.role) || impersonatorId !== null) return answer;
    return (await staffOrganizationDto(app.ctx.db, answer)) ?? answer;
  });
}
