import { ProjectStruct, type UpdateProjectBody } from '@/domain/contract/projects.ts';
import { api } from '@/lib/api-client.ts';

/** A§7: the name, or one link field (null clears it). */
export function updateProject(id: number, body: UpdateProjectBody) {
  return api('PATCH', `/projects/${id}`, { body, struct: ProjectStruct });
}
