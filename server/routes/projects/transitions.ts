import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AnyOperation } from '../../../src/domain/contract/define.ts';
import * as operations from '../../../src/domain/contract/projects.ts';
import type { ProjectAction } from '../../../src/domain/project-rules.ts';
import { parse } from '../../http-error.ts';
import { duplicateProject } from '../../services/project-duplicate.ts';
import { requireAllowed, visibleProject } from '../../services/project-access.ts';
import { assignEditor, runTransition, unassignEditor, setReviewPeriod, submitProject } from '../../services/project-transitions.ts';
import { projectFor } from '../../services/project-view.ts';
import { route } from '../operation-route.ts';

async function target(request: FastifyRequest, id: number) {
  const { auth } = request;
  const project = await visibleProject(request.server.ctx, auth, id);
  return { auth, project };
}

/** Staff calls that are one transition each (A§7). */
const SIMPLE = [
  [operations.approveProject, 'approve'],
  [operations.archiveProject, 'archive'],
  [operations.hideProject, 'hide'],
  [operations.restoreProject, 'restore'],
  [operations.pauseProject, 'pause'],
  [operations.resumeProject, 'resume'],
  [operations.restoreProjectToReview, 'restore-to-review'],
] as const satisfies readonly (readonly [AnyOperation, ProjectAction])[];

/**
 * Assign-editor answers for the role and the status before it reads the body (a customer is
 * refused, 403, whatever they send): its route parses the body itself, after requireAllowed.
 */
const assignEditorRoute = { ...operations.assignEditor, body: undefined };

export default async function projectTransitionRoutes(app: FastifyInstance) {
  for (const [operation, action] of SIMPLE) {
    route(app, operation, async ({ params }, request) => {
      const { auth, project } = await target(request, params.id);
      return projectFor(auth, await runTransition(app.ctx, auth, project, action));
    });
  }

  // One call, three meanings (C§7, A§7): a customer sends to editing or asks for a revision;
  // staff send the edit to review.
  route(app, operations.submitProject, async ({ params }, request) => {
    const { auth, project } = await target(request, params.id);
    return projectFor(auth, await submitProject(app.ctx, auth, project));
  });

  route(app, operations.duplicateProject, async ({ params }, request) => {
    const { auth, project } = await target(request, params.id);
    return { id: await duplicateProject(app.ctx, auth, project) };
  });

  route(app, assignEditorRoute, async ({ params }, request) => {
    const { auth, project } = await target(request, params.id);
    requireAllowed('assign-editor', auth, project); // the role and status first, then the body
    const { editorId } = parse(operations.AssignEditorBodyStruct, request.body);
    return projectFor(auth, await assignEditor(app.ctx, auth, project, editorId));
  });

  route(app, operations.unassignEditor, async ({ params }, request) => {
    const { auth, project } = await target(request, params.id);
    return projectFor(auth, await unassignEditor(app.ctx, auth, project));
  });

  route(app, operations.setReviewPeriod, async ({ params, body }, request) => {
    const { auth, project } = await target(request, params.id);
    return projectFor(auth, await setReviewPeriod(app.ctx, auth, project, body.reviewPeriod));
  });
}
