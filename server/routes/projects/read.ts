import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/projects.ts';
import { CUSTOMER_VISIBLE } from '../../../src/domain/project-rules.ts';
import { BOARD_SECTIONS, PROJECT_STATUSES, type ProjectStatus } from '../../../src/domain/project-status.ts';
import { isStaffRole } from '../../../src/domain/roles.ts';
import { notFound } from '../../http-error.ts';
import { organizationsRepo } from '../../repositories/organizations.ts';
import { projectsRepo } from '../../repositories/projects.ts';
import { visibleProject } from '../../services/project-access.ts';
import { projectFor } from '../../services/project-view.ts';
import { route } from '../operation-route.ts';

export default async function projectReadRoutes(app: FastifyInstance) {
  route(app, operations.getProject, async ({ params }, request) => {
    const { auth } = request;
    return projectFor(auth, await visibleProject(app.ctx, auth, params.id));
  });

  // C§7: data.projects, optionally only Archived or Approved (the content library) or one
  // section of the board; paged (issue 9: a thousand projects made a 1.1 MB answer).
  route(app, operations.listOrganizationProjects, async ({ params, query }, request) => {
    const { auth } = request;
    const organizationId = params.id;
    const { type, section, start = 0, limit = operations.PROJECT_PAGE_DEFAULT } = query;
    const staff = isStaffRole(auth.user.role);
    // Staff of a deleted organization find nothing to list: it is gone for them too.
    if (staff && !(await organizationsRepo(app.ctx.db).findById(organizationId))) throw notFound();
    const visible = staff ? PROJECT_STATUSES : CUSTOMER_VISIBLE;
    const wanted: readonly ProjectStatus[] =
      type === 'Archived' ? ['ARCHIVED'] : type === 'Approved' ? ['APPROVED'] : section ? BOARD_SECTIONS[section] : visible;
    const statuses = wanted.filter((status) => visible.includes(status));
    const { rows, total } = await projectsRepo(app.ctx.db).listForOrganization(organizationId, statuses, start, limit);
    return { data: { projects: rows.map((row) => projectFor(auth, row)), total } };
  });
}
