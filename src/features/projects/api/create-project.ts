import * as operations from '@/domain/contract/projects.ts';
import type { CreateProjectBody } from '@/domain/contract/projects.ts';
import { call } from '@/lib/api-client.ts';

export function createProject(organizationId: number, body: CreateProjectBody) {
  return call(operations.createProject, { params: { id: organizationId }, body });
}
