import { runProjectAction } from '@/shared/project/api/project-action.ts';

/** Sends an OPENED project to editing, or an IN_REVIEW one back for a revision. */
export function submitProject(id: number) {
  return runProjectAction(id, 'submit');
}
