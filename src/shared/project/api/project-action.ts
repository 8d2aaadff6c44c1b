import * as operations from '@/domain/contract/projects.ts';
import { call } from '@/lib/api-client.ts';

/** A§4/A§7 the staff's POST projects/{id}/{action}: complete (archive), delete (hide), restore, pause, resume, send to review (submit), restore_to_review. */
const ACTIONS = {
  archive: operations.archiveProject,
  hide: operations.hideProject,
  restore: operations.restoreProject,
  pause: operations.pauseProject,
  resume: operations.resumeProject,
  submit: operations.submitProject,
  restore_to_review: operations.restoreProjectToReview,
};

export type ProjectAction = keyof typeof ACTIONS;

/** The one client call for a project's status actions; the answer is the project as it now is. */
export function runProjectAction(id: number, action: ProjectAction) {
  return call(ACTIONS[action], { params: { id } });
}
