import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AssignEditorBodyStruct, ReviewPeriodBodyStruct } from '../../../src/domain/contract/projects.ts';
import type { ProjectAction } from '../../../src/domain/project-rules.ts';
import { parse } from '../../http-error.ts';
import { duplicateProject } from '../../services/project-duplicate.ts';
import { requireAllowed, visibleProject } from '../../services/project-access.ts';
import { assignEditor, runTransition, unassignEditor, setReviewPeriod, submitProject } from '../../services/project-transitions.ts';
import { projectFor } from '../../services/project-view.ts';
import { idParam } from '../params.ts';

async function target(request: FastifyRequest) {
  const { auth } = request;
  const project = await visibleProject(request.server.ctx, auth, idParam(request.params));
  return { auth, project };
}

/** Staff calls that are one transition each (A§7). */
const SIMPLE: Record<string, ProjectAction> = {
  approve: 'approve',
  archive: 'archive',
  hide: 'hide',
  restore: 'restore',
  pause: 'pause',
  resume: 'resume',
  restore_to_review: 'restore-to-review',
};

export default async function projectTransitionRoutes(app: FastifyInstance) {
  for (const [path, action] of Object.entries(SIMPLE)) {
    app.post(`/projects/:id/${path}`, async (request) => {
      const { auth, project } = await target(request);
      return projectFor(auth, await runTransition(app.ctx, auth, project, action));
    });
  }

  // One call, three meanings (C§7, A§7): a customer sends to editing or asks for a revision;
  // staff send the edit to review.
  app.post('/projects/:id/submit', async (request) => {
    const { auth, project } = await target(request);
    return projectFor(auth, await submitProject(app.ctx, auth, project));
  });

  app.post('/projects/:id/duplicate', async (request, reply) => {
    const { auth, project } = await target(request);
    reply.code(201);
    return { id: await duplicateProject(app.ctx, auth, project) };
  });

  app.post('/projects/:id/assign-editor', async (request) => {
    const { auth, project } = await target(request);
    requireAllowed('assign-editor', auth, project); // the role and status first, then the body
    const { editorId } = parse(AssignEditorBodyStruct, request.body);
    return projectFor(auth, await assignEditor(app.ctx, auth, project, editorId));
  });

  app.post('/projects/:id/unassign-editor', async (request) => {
    const { auth, project } = await target(request);
    return projectFor(auth, await unassignEditor(app.ctx, auth, project));
  });

  app.put('/projects/:id/review_period', async (request) => {
    const { auth, project } = await target(request);
    const { reviewPeriod } = parse(ReviewPeriodBodyStruct, request.body);
    return projectFor(auth, await setReviewPeriod(app.ctx, auth, project, reviewPeriod));
  });
}
