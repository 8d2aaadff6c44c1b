import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AssignEditorBodyStruct, ReviewPeriodBodyStruct } from '../../../src/domain/contract/projects.ts';
import type { ProjectAction } from '../../../src/domain/project-rules.ts';
import { reviewPeriodProblem } from '../../../src/domain/review-window.ts';
import { isStaffRole } from '../../../src/domain/roles.ts';
import { badRequest, parse } from '../../http-error.ts';
import { authenticate } from '../../plugins/auth.ts';
import { duplicateProject } from '../../services/project-duplicate.ts';
import { requireAllowed, visibleProject } from '../../services/project-access.ts';
import { runTransition, sendToEditing } from '../../services/project-transitions.ts';
import { projectFor } from '../../services/project-view.ts';
import { idParam } from '../params.ts';

async function target(request: FastifyRequest) {
  const auth = await authenticate(request);
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
    if (isStaffRole(auth.user.role)) return projectFor(auth, await runTransition(app.ctx, auth, project, 'send-to-review'));
    if (project.status === 'IN_REVIEW') return projectFor(auth, await runTransition(app.ctx, auth, project, 'submit-revision'));
    return projectFor(auth, await sendToEditing(app.ctx, auth, project));
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
    const editor = await app.ctx.db.selectFrom('users').select('id').where('id', '=', editorId).where('role', '=', 'EDITOR').where('isEnabled', '=', true).where('deletedAt', 'is', null).executeTakeFirst();
    if (!editor) throw badRequest('Choose an enabled editor.', { fields: { editorId: 'Choose an enabled editor.' } });
    return projectFor(auth, await runTransition(app.ctx, auth, project, 'assign-editor', { editorId }));
  });

  app.put('/projects/:id/review_period', async (request) => {
    const { auth, project } = await target(request);
    const { reviewPeriod } = parse(ReviewPeriodBodyStruct, request.body);
    const problem = reviewPeriodProblem(reviewPeriod);
    if (problem) throw badRequest(problem, { fields: { reviewPeriod: problem } });
    return projectFor(auth, await runTransition(app.ctx, auth, project, 'set-review-period', { reviewPeriod }));
  });

}
