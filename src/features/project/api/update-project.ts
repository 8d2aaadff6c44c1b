import { ProjectStruct, type UpdateProjectBody } from '@/domain/contract/projects.ts';
import { api } from '@/lib/api-client.ts';

export function updateProject(id: number, body: UpdateProjectBody) {
  return api('PATCH', `/projects/${id}`, { body, struct: ProjectStruct });
}
