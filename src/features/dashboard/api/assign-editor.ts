import * as operations from '@/domain/contract/projects.ts';
import { call } from '@/lib/api-client.ts';

export function assignEditor(projectId: number, editorId: number) {
  return call(operations.assignEditor, { params: { id: projectId }, body: { editorId } });
}

/** Takes the editor off a project being edited: it waits for the next one (issue 36). */
export function unassignEditor(projectId: number) {
  return call(operations.unassignEditor, { params: { id: projectId } });
}
