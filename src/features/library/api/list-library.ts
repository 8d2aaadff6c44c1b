import { listAllOrganizationProjects } from '@/shared/project/api/list-organization-projects.ts';

/** ARCHIVED plus APPROVED projects (C§2 content library). */
export async function listLibrary(organizationId: number) {
  const [archived, approved] = await Promise.all((['Archived', 'Approved'] as const).map((type) => listAllOrganizationProjects(organizationId, { type })));
  return [...approved!, ...archived!].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}
