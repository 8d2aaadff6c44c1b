import type { BoardSectionKey } from '@/domain/contract/projects.ts';
import { listOrganizationProjects } from '@/shared/project/api/list-organization-projects.ts';

/** One page of one board section (C§2), newest first, with how many the section holds. */
export async function listProjects(organizationId: number, section: BoardSectionKey, start: number, limit: number) {
  const page = await listOrganizationProjects(organizationId, { section, start, limit });
  return { projects: page.projects, total: page.total ?? page.projects.length };
}
