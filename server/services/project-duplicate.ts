import { LIMITS } from '../../src/domain/validation.ts';
import type { AppContext } from '../context.ts';
import type { AuthContext } from '../plugins/auth.ts';
import { NEW_PROJECT_BLANKS, type ProjectDetails } from '../repositories/projects.ts';
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
    const { id } = await tx
      .insertInto('projects')
      .values({
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
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const assets = await tx.selectFrom('assets').select(['name', 'size', 'type', 'path', 'previewPath', 'crc32']).where('projectId', '=', project.id).where('deletedAt', 'is', null).execute();
    if (assets.length) await tx.insertInto('assets').values(assets.map((a) => ({ ...a, projectId: id, deletedAt: null }))).execute();
    return id;
  });
}
