import * as operations from '@/domain/contract/projects.ts';
import { call } from '@/lib/api-client.ts';

export function approveProject(id: number) {
  return call(operations.approveProject, { params: { id } });
}
