import { Link } from 'wouter';
import { BOARD_SECTIONS } from '@/domain/project-status.ts';
import { EmptyState, PageHeader } from '@/ui/empty-state.tsx';

const SECTIONS = [
  { title: 'Needs review', statuses: BOARD_SECTIONS.needsReview, hint: 'Edited videos waiting for your approval appear here.' },
  { title: 'Editing', statuses: BOARD_SECTIONS.editing, hint: 'Projects our editors are working on appear here.' },
  { title: 'Assembly', statuses: BOARD_SECTIONS.assembly, hint: 'Projects you are still preparing appear here.' },
];

/** /user/projects. The board's cards arrive with the customer-portal issue; the sections stand now. */
export function ProjectsPage() {
  return (
    <>
      <PageHeader title="Projects" subtitle="Everything your organization is producing, by stage." />
      {SECTIONS.map((section) => (
        <section className="section" key={section.title} aria-label={section.title}>
          <div className="section-title">
            <h2>{section.title}</h2>
            <span className="count-pill">0</span>
          </div>
          {section.title === 'Assembly' ? (
            <EmptyState title="Start a new video" icon="plus">
              <p>Describe the video you need, upload your footage and send it to our editors.</p>
              <Link href="/user/create-project" className="btn btn-success">
                Create a project
              </Link>
            </EmptyState>
          ) : (
            <EmptyState title="Nothing here yet" icon="film">
              {section.hint}
            </EmptyState>
          )}
        </section>
      ))}
    </>
  );
}
