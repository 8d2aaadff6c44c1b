import type { FastifyInstance } from 'fastify';
import { CreateProjectBodyStruct, UpdateProjectBodyStruct } from '../../../src/domain/contract/projects.ts';
import { parse } from '../../http-error.ts';
import { visibleProject } from '../../services/project-access.ts';
import { projectFor } from '../../services/project-view.ts';
import { createProject, deleteProject, updateProject } from '../../services/project-write.ts';
import { idParam } from '../params.ts';

export default async function projectWriteRoutes(app: FastifyInstance) {
  app.post('/organizations/:id/projects', { config: { access: 'customer', organizationParam: 'id' } }, async (request, reply) => {
    const { auth } = request;
    const organizationId = idParam(request.params);
    const body = parse(CreateProjectBodyStruct, request.body);
    const id = await createProject(app.ctx.db, auth, organizationId, body);
    reply.code(201);
    return { id };
  });

  // Customers edit the brief (OPENED only) and the name; staff the name and one link at a time.
  app.patch('/projects/:id', async (request) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, idParam(request.params));
    const body = parse(UpdateProjectBodyStruct, request.body);
    return projectFor(auth, await updateProject(app.ctx.db, auth, project, body));
  });

  app.delete('/projects/:id', async (request, reply) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, idParam(request.params));
    await deleteProject(app.ctx.db, auth, project);
    reply.code(204);
  });
}
