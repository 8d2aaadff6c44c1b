import { ProjectListStruct } from '@/domain/contract/projects.ts';
import { api } from '@/lib/api-client.ts';

/** ARCHIVED plus APPROVED projects (C§2 content library). */
export async function listLibrary(organizationId: number) {
  const [archived, approved] = await Promise.all(
    (['Archived', 'Approved'] as const).map((type) => api('GET', `/organizations/${organizationId}/projects`, { query: { type }, struct: ProjectListStruct })),
  );
  return [...approved!.data.projects, ...archived!.data.projects].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}
