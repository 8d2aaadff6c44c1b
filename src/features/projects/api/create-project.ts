import type { CreateProjectBody } from '@/domain/contract/projects.ts';
import { IdResponseStruct } from '@/domain/contract/organizations.ts';
import { api } from '@/lib/api-client.ts';

export function createProject(organizationId: number, body: CreateProjectBody) {
  return api('POST', `/organizations/${organizationId}/projects`, { body, struct: IdResponseStruct });
}
