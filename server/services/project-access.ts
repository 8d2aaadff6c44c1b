import { finalPreviewState } from '../../src/domain/media.ts';
import { CUSTOMER_VISIBLE, decide, type ProjectAction } from '../../src/domain/project-rules.ts';
import { seesOrganization } from '../../src/domain/organization-rules.ts';
import { isStaffRole } from '../../src/domain/roles.ts';
import type { AppContext } from '../context.ts';
import { HttpError, notFound } from '../http-error.ts';
import type { AuthContext } from '../plugins/auth.ts';
import { projectsRepo, type ProjectDetails } from '../repositories/projects.ts';

/**
 * The project `id` as `auth` may see it. Staff see every project; a customer only its own
 * organization's, and never deleted ones: anything else does not exist for them (404).
 */
export async function visibleProject(ctx: AppContext, auth: AuthContext, id: number): Promise<ProjectDetails> {
  const project = await projectsRepo(ctx.db).details(id);
  if (!project) throw notFound();
  if (isStaffRole(auth.user.role)) return project;
  if (!seesOrganization(auth.user, project.organizationId) || !CUSTOMER_VISIBLE.includes(project.status)) throw notFound();
  return project;
}

/** The decision of the shared state machine, or the error the server answers with. */
export function requireAllowed(action: ProjectAction, auth: AuthContext, project: ProjectDetails) {
  const decision = decide(action, auth.user.role, {
    status: project.status,
    hasFinalPreview: Boolean(project.finalVideoPreview),
    finalPreview: finalPreviewState(project.finalVideoPath, project.finalPreviewJob),
    hasEditor: project.editorId !== null,
    statusBeforeHidden: project.statusBeforeHidden,
  });
  if (!decision.allowed) throw new HttpError(decision.status, decision.message);
  return decision;
}
