import type { FastifyInstance } from 'fastify';
import { ProjectListQueryStruct } from '../../../src/domain/contract/projects.ts';
import { CUSTOMER_VISIBLE } from '../../../src/domain/project-rules.ts';
import { PROJECT_STATUSES } from '../../../src/domain/project-status.ts';
import { isStaffRole } from '../../../src/domain/roles.ts';
import { notFound, parse } from '../../http-error.ts';
import { authenticate } from '../../plugins/auth.ts';
import { projectsRepo } from '../../repositories/projects.ts';
import { visibleProject } from '../../services/project-access.ts';
import { toProject } from '../../services/project-view.ts';
import { idParam } from '../params.ts';

export default async function projectReadRoutes(app: FastifyInstance) {
  app.get('/projects/:id', async (request) => {
    const auth = await authenticate(request);
    return toProject(await visibleProject(app.ctx, auth, idParam(request.params)));
  });

  // C§7: data.projects, optionally only Archived or Approved (the content library).
  app.get('/organizations/:id/projects', async (request) => {
    const auth = await authenticate(request);
    const organizationId = idParam(request.params);
    const { type } = parse(ProjectListQueryStruct, request.query);
    const staff = isStaffRole(auth.user.role);
    if (!staff && auth.user.organizationId !== organizationId) throw notFound();
    const statuses = type === 'Archived' ? ['ARCHIVED' as const] : type === 'Approved' ? ['APPROVED' as const] : staff ? PROJECT_STATUSES : CUSTOMER_VISIBLE;
    const rows = await projectsRepo(app.ctx.db).listForOrganization(organizationId, statuses);
    return { data: { projects: rows.map(toProject) } };
  });
}
