import { LIMITS } from '../../src/domain/validation.ts';
import type { AppContext } from '../context.ts';
import type { AuthContext } from '../plugins/auth.ts';
import { assetsRepo } from '../repositories/assets.ts';
import { NEW_PROJECT_BLANKS, projectsRepo, type ProjectDetails } from '../repositories/projects.ts';
import { requireAllowed } from './project-access.ts';

/** "Name (copy)", shortened so it stays within the 43-character name limit. */
export function copyName(name: string): string {
  const suffix = ' (copy)';
  return name.slice(0, LIMITS.projectName - suffix.length).trimEnd() + suffix;
}

/** C§2: a new OPENED project with the brief and asset records of `project` (objects are shared, not copied). */
export async function duplicateProject(ctx: AppContext, auth: AuthContext, project: ProjectDetails): Promise<number> {
  requireAllowed('duplicate', auth, project);
  return ctx.db.transaction().execute(async (tx) => {
    const id = await projectsRepo(tx).create({
      ...NEW_PROJECT_BLANKS,
      organizationId: project.organizationId,
      userId: auth.user.id,
      name: copyName(project.name),
      brief: project.brief,
      audience: project.audience,
      goal: project.goal,
      finalVideoLength: project.finalVideoLength,
      reviewPeriod: project.reviewPeriod,
      assetsLink: project.assetsLink,
    });
    await assetsRepo(tx).copyLive(project.id, id);
    return id;
  });
}
