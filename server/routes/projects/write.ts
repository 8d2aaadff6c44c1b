import type { FastifyInstance } from 'fastify';
import { CreateProjectBodyStruct, LINK_FIELDS, UpdateProjectBodyStruct } from '../../../src/domain/contract/projects.ts';
import { decideLinkEdit } from '../../../src/domain/project-rules.ts';
import { isCustomerRole, isStaffRole } from '../../../src/domain/roles.ts';
import { HttpError, badRequest, conflict, forbidden, notFound, parse } from '../../http-error.ts';
import { authenticate } from '../../plugins/auth.ts';
import { NEW_PROJECT_BLANKS, projectsRepo } from '../../repositories/projects.ts';
import { requireAllowed, visibleProject } from '../../services/project-access.ts';
import { projectFor } from '../../services/project-view.ts';
import { idParam } from '../params.ts';

const BRIEF_KEYS = ['audience', 'goal', 'finalVideoLength', 'brief'] as const;

export default async function projectWriteRoutes(app: FastifyInstance) {
  app.post('/organizations/:id/projects', async (request, reply) => {
    const auth = await authenticate(request);
    const organizationId = idParam(request.params);
    if (!isCustomerRole(auth.user.role) || auth.user.organizationId !== organizationId) throw isStaffRole(auth.user.role) ? forbidden() : notFound();
    const body = parse(CreateProjectBodyStruct, request.body);
    const organization = await app.ctx.db.selectFrom('organizations').select('projectReviewPeriod').where('id', '=', organizationId).executeTakeFirstOrThrow();
    const id = await projectsRepo(app.ctx.db).create({
      ...NEW_PROJECT_BLANKS,
      organizationId,
      userId: auth.user.id,
      name: body.name.trim(),
      brief: body.brief,
      audience: body.audience.trim(),
      goal: body.goal.trim(),
      finalVideoLength: body.finalVideoLength,
      reviewPeriod: organization.projectReviewPeriod,
      assetsLink: null,
    });
    reply.code(201);
    return { id };
  });

  // Customers edit the brief (OPENED only) and the name; staff the name and one link at a time.
  app.patch('/projects/:id', async (request) => {
    const auth = await authenticate(request);
    const project = await visibleProject(app.ctx, auth, idParam(request.params));
    const body = parse(UpdateProjectBodyStruct, request.body);
    const briefChanges = BRIEF_KEYS.filter((key) => body[key] !== undefined);
    const linkChanges = LINK_FIELDS.filter((key) => body[key] !== undefined);
    if (briefChanges.length === 0 && linkChanges.length === 0 && body.name === undefined) throw badRequest('Nothing to change.');
    if (body.name !== undefined) requireAllowed('rename', auth, project);
    if (briefChanges.length) requireAllowed('edit-brief', auth, project);
    // A§2, A§8: staff only, and an editor not the organization-assets link (src/domain/project-rules.ts).
    for (const key of linkChanges) {
      const decision = decideLinkEdit(auth.user.role, key);
      if (!decision.allowed) throw new HttpError(decision.status, decision.message);
    }
    const changes = {
      ...(body.name !== undefined ? { name: body.name.trim() } : {}),
      ...Object.fromEntries(briefChanges.map((key) => [key, (body[key] as string).trim()])),
      ...Object.fromEntries(linkChanges.map((key) => [key, body[key] ? (body[key] as string).trim() : null])),
    };
    const repo = projectsRepo(app.ctx.db);
    if (!(await repo.update(project.id, changes, project.status))) throw conflict('The project changed meanwhile. Reload and try again.');
    return projectFor(auth, (await repo.details(project.id))!);
  });

  app.delete('/projects/:id', async (request, reply) => {
    const auth = await authenticate(request);
    const project = await visibleProject(app.ctx, auth, idParam(request.params));
    const decision = requireAllowed('delete', auth, project);
    const done = await projectsRepo(app.ctx.db).update(project.id, { status: decision.next!, deletedAt: new Date() }, project.status);
    if (!done) throw conflict('The project changed meanwhile. Reload and try again.');
    reply.code(204);
  });
}
