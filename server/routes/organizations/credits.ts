import type { FastifyInstance } from 'fastify';
import { UpdateCreditsBodyStruct } from '../../../src/domain/contract/customers.ts';
import { parse } from '../../http-error.ts';
import { organizationCredits, updateCredits } from '../../services/organization-admin.ts';
import { idParam } from '../params.ts';

export default async function organizationCreditsRoutes(app: FastifyInstance) {
  // C§7 / A§7: { data: { credits } } for the organization's members and for staff.
  app.get('/organizations/:id/credits', { config: { organizationParam: 'id' } }, async (request) => {
    const id = idParam(request.params);
    return { data: { credits: await organizationCredits(app.ctx.db, id) } };
  });

  app.put('/organizations/:id/credits', { config: { access: 'managers' } }, async (request) => {
    const id = idParam(request.params);
    const current = await organizationCredits(app.ctx.db, id);
    const body = parse(UpdateCreditsBodyStruct, request.body);
    const credits = await updateCredits(app.ctx.db, current, body);
    request.log.info({ organizationId: id, credits: body.credits }, 'credits updated');
    return { data: { credits } };
  });
}
