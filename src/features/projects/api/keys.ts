import type { BoardSectionKey } from '@/domain/contract/projects.ts';
import { queryKeys } from '@/shared/query/keys.ts';

/**
 * A board section, paged: under the organization's projects so that any change to the
 * organization (a delete, a duplicate, a new project, a send) refreshes it, with its own tail
 * because the staff pages keep other shapes under the same prefix.
 */
export const boardSectionKey = (organizationId: number, section: BoardSectionKey) =>
  [...queryKeys.organizationProjects(organizationId), 'board', section] as const;
