import { runProjectAction as run } from '@/shared/project/api/project-action.ts';

/** A§7 pause, resume, submit (send to review) and restore_to_review. */
export type StaffProjectAction = 'pause' | 'resume' | 'submit' | 'restore_to_review';

export function runProjectAction(id: number, action: StaffProjectAction) {
  return run(id, action);
}
