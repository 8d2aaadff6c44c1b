import { listAllOrganizationProjects } from '@/shared/project/api/list-organization-projects.ts';

export async function listOrganizationProjects(organizationId: number) {
  return listAllOrganizationProjects(organizationId);
}
