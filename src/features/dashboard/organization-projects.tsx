import { useAtomValue } from '@/lib/state.ts';
import { Link } from 'wouter';
import type { Project } from '@/domain/contract/projects.ts';
import { isManagerRole } from '@/domain/roles.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { formatDate } from '@/lib/format.ts';
import { useQuery } from '@/lib/query.ts';
import { meAtom } from '@/lib/session-state.ts';
import { DataTable, type Column } from '@/ui/data-table.tsx';
import { EmptyState, Spinner } from '@/ui/empty-state.tsx';
import { LinkCell, StaffStatusPill } from '@/ui/project-cells.tsx';
import { SlaBadge } from '@/ui/sla-badge.tsx';
import { dashboardKeys } from './api/keys.ts';
import { listOrganizationProjects } from './api/list-organization-projects.ts';
import { EditorSelect } from './components/editor-select.tsx';
import { useAssignableEditors } from './use-dashboard-queries.ts';
import { pathTo } from '@/domain/pages.ts';

/** The organization page's projects table (A§2): timers refresh every 10 s. */
export function OrganizationProjects({ organizationId }: { organizationId: number }) {
  const me = useAtomValue(meAtom);
  const query = useQuery({ queryKey: dashboardKeys.organizationProjects(organizationId), queryFn: () => listOrganizationProjects(organizationId) });
  const projects = query.data ?? null;
  const error = query.error ? errorMessage(query.error) : null;
  const editors = useAssignableEditors();
  const columns: Column<Project>[] = [
    { key: 'timer', header: 'Timer', cell: (project) => <SlaBadge project={{ ...project, status: project.status.name }} refreshMs={10_000} /> },
    {
      key: 'name',
      header: 'Project',
      width: '30%',
      cell: (project) => (
        <Link href={pathTo('staffProject', { id: project.id })} className="cell-clip" title={project.name}>
          {project.name}
        </Link>
      ),
    },
    { key: 'organization', header: 'Organization', cell: (project) => project.organization.name },
    { key: 'status', header: 'Status', nowrap: true, cell: (project) => <StaffStatusPill status={project.status.name} /> },
    { key: 'createdAt', header: 'Created', nowrap: true, cell: (project) => formatDate(project.createdAt) },
    { key: 'feedback', header: 'Feedback', cell: (project) => <LinkCell href={project.reviewLink} /> },
    {
      key: 'editor',
      header: 'Editor',
      cell: (project) => (
        <EditorSelect
          projectId={project.id}
          projectName={project.name}
          status={project.status.name}
          editor={project.editor}
          editors={editors}
          disabled={!isManagerRole(me?.role.name)}
        />
      ),
    },
  ];

  return (
    <>
      <div className="section-title">
        <h2>Projects</h2>
        {projects && <span className="count-pill">{projects.length}</span>}
      </div>
      {error && <div className="form-error">{error}</div>}
      {!projects && !error && <Spinner />}
      {projects?.length === 0 && (
        <EmptyState title="No projects yet" icon="film">
          This organization has not created a project.
        </EmptyState>
      )}
      {projects && projects.length > 0 && (
        <div className="table-card board-card">
          <DataTable variant="board" label="Organization projects" columns={columns} rows={projects} rowKey={(project) => project.id} />
        </div>
      )}
    </>
  );
}
