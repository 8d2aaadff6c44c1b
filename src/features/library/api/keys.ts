import { queryKeys } from '@/shared/query/keys.ts';

/** The finished projects, under the organization's projects: a duplicate or an approval refreshes them. */
export const libraryKey = (organizationId: number) => [...queryKeys.organizationProjects(organizationId), 'library'] as const;
