import { ProjectStruct } from '@/domain/contract/projects.ts';
import { api } from '@/lib/api-client.ts';

/** A§4/A§7 the staff's POST projects/{id}/{action}: complete (archive), delete (hide), restore, pause, resume, send to review (submit), restore_to_review. */
export type ProjectAction = 'archive' | 'hide' | 'restore' | 'pause' | 'resume' | 'submit' | 'restore_to_review';

/** The one client call for a project's status actions; the answer is the project as it now is. */
export function runProjectAction(id: number, action: ProjectAction) {
  return api('POST', `/projects/${id}/${action}`, { struct: ProjectStruct });
}
