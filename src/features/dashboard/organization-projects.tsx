import { useAtomValue } from '@/lib/state.ts';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'wouter';
import type { Project } from '@/domain/contract/projects.ts';
import type { User } from '@/domain/contract/users.ts';
import { isManagerRole } from '@/domain/roles.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { formatDate } from '@/lib/format.ts';
import { meAtom } from '@/lib/session-state.ts';
import { EmptyState, Spinner } from '@/ui/empty-state.tsx';
import { LinkCell, StaffStatusPill } from '@/ui/project-cells.tsx';
import { SlaBadge } from '@/ui/sla-badge.tsx';
import { listEditors } from './api/list-editors.ts';
import { listOrganizationProjects } from './api/list-organization-projects.ts';
import { EditorSelect } from './components/editor-select.tsx';

/** The organization page's projects table (A§2): timers refresh every 10 s. */
export function OrganizationProjects({ organizationId }: { organizationId: number }) {
  const me = useAtomValue(meAtom);
  const [projects, setProjects] = useState<Project[] | null>(null);
  const [editors, setEditors] = useState<User[]>([]);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setProjects(await listOrganizationProjects(organizationId));
    } catch (e) {
      setError(errorMessage(e));
    }
  }, [organizationId]);
  useEffect(() => void load(), [load]);
  useEffect(() => {
    listEditors()
      .then(setEditors)
      .catch((e: unknown) => console.error('editors failed to load', e));
  }, []);

  return (
    <>
      <div className="section-title">
        <h2>Projects</h2>
        {projects && <span className="count-pill">{projects.length}</span>}
      </div>
      {error && <div className="form-error">{error}</div>}
      {!projects && !error && <Spinner />}
      {projects?.length === 0 && <EmptyState title="No projects yet" icon="film">This organization has not created a project.</EmptyState>}
      {projects && projects.length > 0 && (
        <div className="table-card">
          <table className="data-table" aria-label="Organization projects">
            <thead>
              <tr>
                <th>Timer</th>
                <th>Project</th>
                <th>Organization</th>
                <th>Status</th>
                <th>Created</th>
                <th>Feedback</th>
                <th>Editor</th>
              </tr>
            </thead>
            <tbody>
              {projects.map((project) => (
                <tr key={project.id}>
                  <td>
                    <SlaBadge project={{ ...project, status: project.status.name }} refreshMs={10_000} />
                  </td>
                  <td>
                    <Link href={`/project/${project.id}`}>{project.name}</Link>
                  </td>
                  <td>{project.organization.name}</td>
                  <td>
                    <StaffStatusPill status={project.status.name} />
                  </td>
                  <td>{formatDate(project.createdAt)}</td>
                  <td>
                    <LinkCell href={project.reviewLink} />
                  </td>
                  <td>
                    <EditorSelect projectId={project.id} projectName={project.name} status={project.status.name} editor={project.editor} editors={editors} disabled={!isManagerRole(me?.role.name)} onAssigned={() => void load()} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
