import type { Project } from '@/domain/contract/projects.ts';
import { CUSTOMER_STATUS_LABELS } from '@/domain/project-status.ts';
import { SlaBadge } from '@/ui/sla-badge.tsx';

const NOTES: Partial<Record<Project['status']['name'], string>> = {
  OPENED: 'Assembly: prepare the brief and footage, then send the project to editing.',
  WAITING_FOR_EDITOR: 'Sent to editing. An editor is being assigned.',
  IN_EDITING: 'An editor is working on your video.',
  PAUSED: 'Editing is paused. We will be in touch.',
  APPROVED: 'Approved. The final video is in your content library.',
  ARCHIVED: 'Completed and archived in your content library.',
};

/** Status banner, or the review timer in days while in review (0 = no timer). */
export function StatusBanner({ project }: { project: Project }) {
  const status = project.status.name;
  const editing = status === 'WAITING_FOR_EDITOR' || status === 'IN_EDITING' || status === 'PAUSED';
  return (
    <div className={`status-banner status-${status.toLowerCase()}`} role="status" data-testid="status-banner">
      <span className="status-banner-label">{CUSTOMER_STATUS_LABELS[status]}</span>
      {status === 'IN_REVIEW' ? (
        <span>
          Ready for your review.
          {project.reviewDaysLeft > 0 && (
            <strong data-testid="review-days-left">
              {' '}
              {project.reviewDaysLeft} {project.reviewDaysLeft === 1 ? 'day' : 'days'} left to review
            </strong>
          )}
        </span>
      ) : (
        <span>{NOTES[status]}</span>
      )}
      {editing && <SlaBadge project={{ ...project, status }} refreshMs={1_000} label="Delivery in" explainPause />}
    </div>
  );
}
