import { useSetAtom } from '@/lib/state.ts';
import { useCallback, useEffect } from 'react';
import type { Project } from '@/domain/contract/projects.ts';
import { can } from '@/domain/project-rules.ts';
import type { RoleName } from '@/domain/roles.ts';
import { projectNameRule } from '@/domain/validation.ts';
import { ApiError, errorMessage } from '@/lib/api-client.ts';
import { fieldError } from '@/lib/form-errors.ts';
import { useQuery, useQueryClient } from '@/lib/query.ts';
import { queryKeys } from '@/shared/query/keys.ts';
import { useProjectEvents } from '@/shared/review/use-project-events.ts';
import { VIDEO_RETRY_MS } from '@/ui/constants.ts';
import { pageTitleAtom } from './page-title.ts';

/**
 * Loads a project for a project page and puts its title in the top bar, editable in place
 * while the state machine allows renaming (C§2, A§2). `setProject` stores an answer a change
 * returned (send, review, brief) as the page's project and refreshes the lists that show it.
 */
export function useProjectPage(
  id: number,
  role: RoleName | undefined,
  load: (id: number) => Promise<Project>,
  rename: (id: number, name: string) => Promise<Project>,
  /** While this holds (a video being processed or not yet delivered), the project is read again every few seconds. */
  awaitingVideo: (project: Project) => boolean = () => false,
) {
  const client = useQueryClient();
  const key = queryKeys.project(id);
  const query = useQuery({
    queryKey: key,
    queryFn: () => load(id),
    refetchInterval: ({ state }) => (state.data && awaitingVideo(state.data) ? VIDEO_RETRY_MS : false),
  });
  // Comments, replies, resolves and status changes by anyone show without a reload.
  useProjectEvents(id);
  const project = query.data ?? null;
  const missing = query.error
    ? query.error instanceof ApiError && query.error.status === 404
      ? 'This project does not exist or was deleted.'
      : errorMessage(query.error)
    : null;
  const setPageTitle = useSetAtom(pageTitleAtom);

  const setProject = useCallback(
    (changed: Project) => {
      client.setQueryData(queryKeys.project(changed.id), changed);
      // Its card, its row on the dashboard and the organization's figures show the change too.
      void client.invalidateQueries({ queryKey: queryKeys.organization(changed.organization.id) });
      void client.invalidateQueries({ queryKey: queryKeys.dashboard() });
    },
    [client],
  );

  useEffect(() => {
    if (!project || !role) return;
    const editable = can('rename', role, { status: project.status.name, hasFinalPreview: false, hasEditor: false });
    setPageTitle({
      title: project.name,
      validate: projectNameRule,
      ...(editable && {
        onSubmit: async (name: string) => {
          try {
            setProject(await rename(project.id, name));
            return undefined;
          } catch (e) {
            return fieldError(e, 'name');
          }
        },
      }),
    });
  }, [project, role, rename, setPageTitle, setProject]);
  useEffect(() => () => setPageTitle(null), [setPageTitle]);

  return { project, setProject, missing };
}
