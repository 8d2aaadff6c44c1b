import * as operations from '@/domain/contract/projects.ts';
import { call } from '@/lib/api-client.ts';

export async function deleteProject(id: number): Promise<void> {
  await call(operations.deleteProject, { params: { id } });
}
