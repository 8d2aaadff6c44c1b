import { ProjectStruct } from '@/domain/contract/projects.ts';
import { api } from '@/lib/api-client.ts';

/** Sends an OPENED project to editing, or an IN_REVIEW one back for a revision. */
export function submitProject(id: number) {
  return api('POST', `/projects/${id}/submit`, { struct: ProjectStruct });
}
