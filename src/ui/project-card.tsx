import { useState } from 'react';
import type { Project } from '@/domain/contract/projects.ts';
import { CUSTOMER_STATUS_LABELS } from '@/domain/project-status.ts';
import { Icon } from './icons.tsx';
import { Menu, type MenuItem } from './menu.tsx';
import { SlaBadge } from './sla-badge.tsx';

const EDITING = ['WAITING_FOR_EDITOR', 'IN_EDITING', 'PAUSED'];
const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** A project tile of the board and the content library; its menu comes from the page. */
export function ProjectCard({ project, onOpen, menu }: { project: Project; onOpen: () => void; menu: MenuItem[] }) {
  const status = project.status.name;
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <article className="project-card" onClick={onOpen} role="link" tabIndex={0} onKeyDown={(e) => e.key === 'Enter' && onOpen()} aria-label={project.name}>
      <div className="project-thumb">
        {/* The final video's thumbnail when there is one; the placeholder also when it fails to load (expired link, file gone). */}
        {project.finalVideoThumbnail && failed !== project.finalVideoThumbnail ? (
          <img src={project.finalVideoThumbnail} alt="" data-testid="card-thumbnail" onError={() => setFailed(project.finalVideoThumbnail)} />
        ) : (
          <Icon name="film" size={34} />
        )}
        <span className={`status-chip status-${status.toLowerCase()}`}>{CUSTOMER_STATUS_LABELS[status]}</span>
      </div>
      <div className="project-card-body">
        <div className="project-card-title">
          <h3>{project.name}</h3>
          <Menu items={menu} label={`Actions for ${project.name}`} />
        </div>
        <p className="project-card-meta">
          Created {dateFormat.format(new Date(project.createdAt))}
          {project.noReviews > 0 && <> · Version {String(project.noReviews).padStart(2, '0')}</>}
        </p>
        {EDITING.includes(status) && (
          <p className="project-card-timer">
            <SlaBadge project={{ ...project, status }} refreshMs={60_000} label="Delivery in" explainPause />
          </p>
        )}
        {status === 'IN_REVIEW' && (
          <p className="project-card-timer review">Waiting for your review{project.reviewDaysLeft > 0 && ` · ${project.reviewDaysLeft} days left`}</p>
        )}
      </div>
    </article>
  );
}
