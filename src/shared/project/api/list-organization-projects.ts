import { PROJECT_PAGE_MAX, ProjectListStruct, type Project } from '@/domain/contract/projects.ts';
import { api } from '@/lib/api-client.ts';

/**
 * Every project of an organization that matches `query`, read page by page: the server pages
 * `GET organizations/{id}/projects` (at most PROJECT_PAGE_MAX a call), so screens that show
 * the whole list (content library, staff organization page) follow `total` to the end.
 */
export async function listAllOrganizationProjects(organizationId: number, query: Record<string, string> = {}): Promise<Project[]> {
  const projects: Project[] = [];
  for (;;) {
    const { data } = await api('GET', `/organizations/${organizationId}/projects`, { query: { ...query, start: projects.length, limit: PROJECT_PAGE_MAX }, struct: ProjectListStruct });
    projects.push(...data.projects);
    if (data.projects.length === 0 || projects.length >= (data.total ?? projects.length)) return projects;
  }
}
