import { ProjectStruct } from '@/domain/contract/projects.ts';
import { api } from '@/lib/api-client.ts';

/** A§4 Complete (archive), Delete (hide) and Restore. */
export type StatusAction = 'archive' | 'hide' | 'restore';

export function changeStatus(projectId: number, action: StatusAction) {
  return api('POST', `/projects/${projectId}/${action}`, { struct: ProjectStruct });
}
