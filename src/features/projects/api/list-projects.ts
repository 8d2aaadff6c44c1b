import { ProjectListStruct, type BoardSectionKey } from '@/domain/contract/projects.ts';
import { api } from '@/lib/api-client.ts';

/** One page of one board section (C§2), newest first, with how many the section holds. */
export async function listProjects(organizationId: number, section: BoardSectionKey, start: number, limit: number) {
  const { data } = await api('GET', `/organizations/${organizationId}/projects`, { query: { section, start, limit }, struct: ProjectListStruct });
  return { projects: data.projects, total: data.total ?? data.projects.length };
}
