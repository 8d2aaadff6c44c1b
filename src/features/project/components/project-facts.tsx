import type { Project } from '@/domain/contract/projects.ts';
import { CUSTOMER_STATUS_LABELS } from '@/domain/project-status.ts';
import { formatDate } from '@/lib/format.ts';

/**
 * The project at a glance beside the video once the brief is locked and collapsed, so the side
 * column is not left empty: status, version, dates and the brief's short fields.
 */
export function ProjectFacts({ project }: { project: Project }) {
  const rows: [string, string][] = [
    ['Status', CUSTOMER_STATUS_LABELS[project.status.name]],
    ...(project.noReviews > 0 ? ([['Version', String(project.noReviews).padStart(2, '0')]] as [string, string][]) : []),
    ['Created', formatDate(project.createdAt)],
    ...(project.latestSubmittedAt ? ([['Sent to editing', formatDate(project.latestSubmittedAt)]] as [string, string][]) : []),
    ['Length', project.finalVideoLength],
    ['Audience', project.audience],
    ['Goal', project.goal],
  ];
  return (
    <section className="card project-facts" aria-label="About this project">
      <h2>About this project</h2>
      <dl>
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd title={value}>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
