import * as operations from '@/domain/contract/projects.ts';
import type { UpdateProjectBody } from '@/domain/contract/projects.ts';
import { call } from '@/lib/api-client.ts';

/** A§7: the name, or one link field (null clears it). */
export function updateProject(id: number, body: UpdateProjectBody) {
  return call(operations.updateProject, { params: { id }, body });
}
