import { useAtomValue } from '@/lib/state.ts';
import { useCallback, useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import type { Project } from '@/domain/contract/projects.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { downloadItems } from '@/shared/media/download-menu.ts';
import { meAtom } from '@/lib/session-state.ts';
import { NEEDS_CONNECTION, useOffline } from '@/lib/connectivity.ts';
import { EmptyState, PageHeader, Spinner } from '@/ui/empty-state.tsx';
import { ProjectCard } from '@/ui/project-card.tsx';
import { duplicateProject } from '@/shared/project/api/duplicate-project.ts';
import { listLibrary } from './api/list-library.ts';

/** /user/content-library: approved and archived videos, with the count in the title. */
export function ContentLibraryPage() {
  const me = useAtomValue(meAtom);
  const offline = useOffline();
  const [, navigate] = useLocation();
  const [projects, setProjects] = useState<Project[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    if (!me?.organizationId) return;
    try {
      setProjects(await listLibrary(me.organizationId));
    } catch (e) {
      setError(errorMessage(e));
    }
  }, [me?.organizationId]);
  useEffect(() => void load(), [load]);

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
              onOpen={() => navigate(`/user/project/${project.id}`)}
              menu={[
                ...downloadItems(project),
                {
                  label: 'Duplicate',
                  ...(offline && { disabled: true, hint: NEEDS_CONNECTION }),
                  onSelect: () =>
                    void duplicateProject(project.id)
                      .then(() => navigate('/user/projects'))
                      .catch((e: unknown) => setError(errorMessage(e))),
                },
              ]}
            />
          ))}
        </div>
      )}
    </>
  );
}
