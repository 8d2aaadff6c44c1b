import { useCallback } from 'react';
import type { Project } from '@/domain/contract/projects.ts';
import type { User } from '@/domain/contract/users.ts';
import { useQuery, useQueryClient } from '@/lib/query.ts';
import { queryKeys } from '@/shared/query/keys.ts';
import { dashboardKeys } from './api/keys.ts';
import { listEditors } from './api/list-editors.ts';

const NO_EDITORS: User[] = [];

/** The editors a project can be given; one request however many pickers the table shows. */
export function useAssignableEditors(): User[] {
  return useQuery({ queryKey: dashboardKeys.assignableEditors(), queryFn: listEditors }).data ?? NO_EDITORS;
}

/**
 * Stores a project a change answered (assignment, status) as its page's copy, so opening it
 * needs no request, and refreshes the lists that show it: the dashboard and its organization.
 */
export function useProjectChanged(): (changed: Project) => void {
  const client = useQueryClient();
  return useCallback(
    (changed: Project) => {
      client.setQueryData(queryKeys.project(changed.id), changed);
      void client.invalidateQueries({ queryKey: queryKeys.dashboard() });
      void client.invalidateQueries({ queryKey: queryKeys.organization(changed.organization.id) });
    },
    [client],
  );
}
