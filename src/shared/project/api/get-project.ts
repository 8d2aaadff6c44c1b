import * as operations from '@/domain/contract/projects.ts';
import { call } from '@/lib/api-client.ts';

export function getProject(id: number) {
  return call(operations.getProject, { params: { id } });
}
