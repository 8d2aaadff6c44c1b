import type { ProjectStatus } from '@/domain/project-status.ts';
import { STAFF_STATUS_LABELS } from '@/domain/project-status.ts';

/** A project's status as staff read it (A§4 labels). */
export function StaffStatusPill({ status }: { status: ProjectStatus }) {
  return <span className={`status-pill s-${status.toLowerCase()}`}>{STAFF_STATUS_LABELS[status]}</span>;
}

/** An outside link opened in a new tab, or a dash when there is none. */
export function LinkCell({ href, label = 'Open' }: { href: string | null; label?: string }) {
  return href ? (
    <a href={href} target="_blank" rel="noreferrer">
      {label}
    </a>
  ) : (
    <span className="muted-cell">—</span>
  );
}
