import { ProjectListStruct } from '@/domain/contract/projects.ts';
import { api } from '@/lib/api-client.ts';

export async function listOrganizationProjects(organizationId: number) {
  return (await api('GET', `/organizations/${organizationId}/projects`, { struct: ProjectListStruct })).data.projects;
}
