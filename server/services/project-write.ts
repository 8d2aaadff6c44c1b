import { LINK_FIELDS, type CreateProjectBody, type UpdateProjectBody } from '../../src/domain/contract/projects.ts';
import { decideLinkEdit } from '../../src/domain/project-rules.ts';
import type { Db } from '../db/connect.ts';
import { publishChange } from '../events/bus.ts';
import { HttpError, badRequest } from '../http-error.ts';
import type { AuthContext } from '../plugins/auth.ts';
import { NEW_PROJECT_BLANKS, projectsRepo, type ProjectDetails } from '../repositories/projects.ts';
import { requireAllowed } from './project-access.ts';
import { changedMeanwhile } from './project-transitions.ts';

const BRIEF_KEYS = ['audience', 'goal', 'finalVideoLength', 'brief'] as const;

/** C§2 new project: OPENED, with the organization's review period; answers its id. */
export async function createProject(db: Db, auth: AuthContext, organizationId: number, body: CreateProjectBody): Promise<number> {
  const repo = projectsRepo(db);
  const reviewPeriod = await repo.organizationReviewPeriod(organizationId);
  const id = await repo.create({
    ...NEW_PROJECT_BLANKS,
    organizationId,
    userId: auth.user.id,
    name: body.name.trim(),
    brief: body.brief,
    audience: body.audience.trim(),
    goal: body.goal.trim(),
    finalVideoLength: body.finalVideoLength,
    reviewPeriod,
    assetsLink: null,
  });
  // A new row on the staff dashboard (server/events/).
  await publishChange(db, { type: 'project', projectId: id });
  return id;
}

/**
 * PATCH projects/{id}: customers edit the brief (OPENED only) and the name; staff the name and
 * one link at a time. Answers the project as saved.
 */
export async function updateProject(db: Db, auth: AuthContext, project: ProjectDetails, body: UpdateProjectBody): Promise<ProjectDetails> {
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
  const repo = projectsRepo(db);
  if (!(await repo.update(project.id, changes, project.status))) throw changedMeanwhile();
  await publishChange(db, { type: 'project', projectId: project.id });
  return (await repo.details(project.id))!;
}

/** DELETE projects/{id}: the state machine's delete (a soft delete). */
export async function deleteProject(db: Db, auth: AuthContext, project: ProjectDetails): Promise<void> {
  const decision = requireAllowed('delete', auth, project);
  const done = await projectsRepo(db).update(project.id, { status: decision.next!, deletedAt: new Date() }, project.status);
  if (!done) throw changedMeanwhile();
  await publishChange(db, { type: 'project', projectId: project.id });
}
