import { ProjectStruct } from '@/domain/contract/projects.ts';
import { api } from '@/lib/api-client.ts';

export function assignEditor(projectId: number, editorId: number) {
  return api('POST', `/projects/${projectId}/assign-editor`, { body: { editorId }, struct: ProjectStruct });
}

/** Takes the editor off a project being edited: it waits for the next one (issue 36). */
export function unassignEditor(projectId: number) {
  return api('POST', `/projects/${projectId}/unassign-editor`, { struct: ProjectStruct });
}
