import { runProjectAction } from '@/shared/project/api/project-action.ts';

/** A§4 Complete (archive), Delete (hide) and Restore. */
export type StatusAction = 'archive' | 'hide' | 'restore';

export function changeStatus(projectId: number, action: StatusAction) {
  return runProjectAction(projectId, action);
}
