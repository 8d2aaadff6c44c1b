import { listAllOrganizationProjects } from '@/lib/organization-projects.ts';

export async function listOrganizationProjects(organizationId: number) {
  return listAllOrganizationProjects(organizationId);
}
