import { ProjectStruct } from '@/domain/contract/projects.ts';
import { api } from '@/lib/api-client.ts';

export function getProject(id: number) {
  return api('GET', `/projects/${id}`, { struct: ProjectStruct });
}
