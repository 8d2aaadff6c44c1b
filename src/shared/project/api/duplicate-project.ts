import * as operations from '@/domain/contract/projects.ts';
import { call } from '@/lib/api-client.ts';

export function duplicateProject(id: number) {
  return call(operations.duplicateProject, { params: { id } });
}
