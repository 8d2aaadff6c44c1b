import type { FastifyInstance } from 'fastify';
import * as operations from '../../../src/domain/contract/projects.ts';
import { visibleProject } from '../../services/project-access.ts';
import { projectFor } from '../../services/project-view.ts';
import { createProject, deleteProject, updateProject } from '../../services/project-write.ts';
import { route } from '../operation-route.ts';

export default async function projectWriteRoutes(app: FastifyInstance) {
  route(app, operations.createProject, async ({ params, body }, request) => ({ id: await createProject(app.ctx.db, request.auth, params.id, body) }));

  // Customers edit the brief (OPENED only) and the name; staff the name and one link at a time.
  route(app, operations.updateProject, async ({ params, body }, request) => {
    const { auth } = request;
    const project = await visibleProject(app.ctx, auth, params.id);
    return projectFor(auth, await updateProject(app.ctx.db, auth, project, body));
  });

  route(app, operations.deleteProject, async ({ params }, request) => {
    const { auth } = request;
    await deleteProject(app.ctx.db, auth, await visibleProject(app.ctx, auth, params.id));
  });
}
