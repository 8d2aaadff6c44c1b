import { ProjectStruct } from '@/domain/contract/projects.ts';
import { api } from '@/lib/api-client.ts';

/** A§7 pause, resume, submit (send to review) and restore_to_review. */
export type StaffProjectAction = 'pause' | 'resume' | 'submit' | 'restore_to_review';

export function runProjectAction(id: number, action: StaffProjectAction) {
  return api('POST', `/projects/${id}/${action}`, { struct: ProjectStruct });
}
