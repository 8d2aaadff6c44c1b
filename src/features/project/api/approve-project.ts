import { ProjectStruct } from '@/domain/contract/projects.ts';
import { api } from '@/lib/api-client.ts';

export function approveProject(id: number) {
  return api('POST', `/projects/${id}/approve`, { struct: ProjectStruct });
}
