import * as operations from '@/domain/contract/projects.ts';
import { PROJECT_PAGE_MAX, type Project } from '@/domain/contract/projects.ts';
import type { QueryOf } from '@/domain/contract/define.ts';
import { call } from '@/lib/api-client.ts';

type ProjectListQuery = QueryOf<typeof operations.listOrganizationProjects>;

/** GET organizations/{id}/projects: one page (`start`, `limit` and the filters in `query`), with the total. The one client call. */
export async function listOrganizationProjects(organizationId: number, query: ProjectListQuery) {
  const { data } = await call(operations.listOrganizationProjects, { params: { id: organizationId }, query });
  return data;
}

/**
 * Every project of an organization that matches `query`, read page by page: the server pages
 * `GET organizations/{id}/projects` (at most PROJECT_PAGE_MAX a call), so screens that show
 * the whole list (content library, staff organization page) follow `total` to the end.
 */
export async function listAllOrganizationProjects(organizationId: number, query: Pick<ProjectListQuery, 'type' | 'section'> = {}): Promise<Project[]> {
  const projects: Project[] = [];
  for (;;) {
    const page = await listOrganizationProjects(organizationId, { ...query, start: projects.length, limit: PROJECT_PAGE_MAX });
    projects.push(...page.projects);
    if (page.projects.length === 0 || projects.length >= (page.total ?? projects.length)) return projects;
  }
}
