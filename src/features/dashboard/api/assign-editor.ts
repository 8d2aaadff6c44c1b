import { ProjectStruct } from '@/domain/contract/projects.ts';
import { api } from '@/lib/api-client.ts';

export function assignEditor(projectId: number, editorId: number) {
  return api('POST', `/projects/${projectId}/assign-editor`, { body: { editorId }, struct: ProjectStruct });
}
