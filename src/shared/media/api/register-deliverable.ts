import * as operations from '@/domain/contract/media.ts';
import type { Project } from '@/domain/contract/projects.ts';
import { call } from '@/lib/api-client.ts';

/**
 * A§7 POST projects/{id}/deliverable: registers the final video the upload engine stored
 * (upload type deliverable) and queues its media work. `path` is the object key (or its
 * folder, then `name` completes it). Answers the project, its `finalVideoPreview` set.
 */
export function registerDeliverable(projectId: number, path: string, name: string): Promise<Project> {
  return call(operations.registerDeliverable, { params: { id: projectId }, body: { path, name } });
}
