import { useAtomValue } from '@/lib/state.ts';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { errorMessage } from '@/lib/api-client.ts';
import { useMutation, useQuery, useQueryClient } from '@/lib/query.ts';
import { queryKeys } from '@/shared/query/keys.ts';
import { downloadItems } from '@/shared/media/download-menu.ts';
import { meAtom } from '@/lib/session-state.ts';
import { NEEDS_CONNECTION, useOffline } from '@/lib/connectivity.ts';
import { EmptyState, PageHeader, Spinner } from '@/ui/empty-state.tsx';
import { ProjectCard } from '@/ui/project-card.tsx';
import { duplicateProject } from '@/shared/project/api/duplicate-project.ts';
import { libraryKey } from './api/keys.ts';
import { listLibrary } from './api/list-library.ts';
import { pathTo } from '@/domain/pages.ts';

/** /user/content-library: approved and archived videos, with the count in the title. */
export function ContentLibraryPage() {
  const me = useAtomValue(meAtom);
  const offline = useOffline();
  const [, navigate] = useLocation();
  const organizationId = me?.organizationId ?? null;
  const client = useQueryClient();
  const query = useQuery({ queryKey: libraryKey(organizationId ?? 0), queryFn: () => listLibrary(organizationId!), enabled: organizationId !== null });
  const projects = query.data ?? null;
  const [duplicateError, setDuplicateError] = useState<string | null>(null);
  const error = duplicateError ?? (query.error ? errorMessage(query.error) : null);
  const duplicate = useMutation({
    mutationFn: (id: number) => duplicateProject(id),
    // The board opens next and must show the copy even if it was read seconds ago; not awaited, so
    // the library's own refresh does not hold the navigation back.
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.organization(organizationId!) }),
  });

  return (
    <>
      <PageHeader title={`Content Library${projects ? ` (${projects.length})` : ''}`} subtitle="Approved and archived videos, ready to download or reuse." />
      {error && <div className="form-error">{error}</div>}
      {!projects && !error && <Spinner />}
      {projects?.length === 0 && (
        <EmptyState title="No finished videos yet" icon="library">
          Videos you approve are kept here in HD and low resolution.
        </EmptyState>
      )}
      {projects && projects.length > 0 && (
        <div className="card-grid">
          {projects.map((project) => (
            <ProjectCard
              key={project.id}
              project={project}
              onOpen={() => navigate(pathTo('project', { id: project.id }))}
              menu={[
                ...downloadItems(project),
                {
                  label: 'Duplicate',
                  ...(offline && { disabled: true, hint: NEEDS_CONNECTION }),
                  onSelect: () =>
                    void duplicate
                      .mutateAsync(project.id)
                      .then(() => navigate(pathTo('projects')))
                      .catch((e: unknown) => setDuplicateError(errorMessage(e))),
                },
              ]}
            />
          ))}
        </div>
      )}
    </>
  );
}
