import type { StaffOrganization } from '@/domain/contract/customers.ts';
import { formatTb, formatUsedSpace, tbToBytes } from '@/domain/bytes.ts';

/** A§2 project report: completed, in progress, storage used/total and asset count. */
export function Report({ organization }: { organization: StaffOrganization }) {
  const quota = tbToBytes(organization.storage);
  const share = quota > 0 ? Math.min(100, (organization.usedSpace / quota) * 100) : 0;
  return (
    <section className="stat-grid" aria-label="Project report">
      <div className="stat">
        <span className="stat-label">Completed projects</span>
        <span className="stat-value" data-testid="completed-projects">
          {organization.completedProjects}
        </span>
      </div>
      <div className="stat">
        <span className="stat-label">Projects in progress</span>
        <span className="stat-value" data-testid="active-projects">
          {organization.activeProjects}
        </span>
      </div>
      <div className="stat">
        <span className="stat-label">Storage used</span>
        <span className="stat-value stat-value-sm">
          {formatUsedSpace(organization.usedSpace)} <span className="stat-of">/ {formatTb(quota)}</span>
        </span>
        <span className="progress" role="progressbar" aria-label="Storage used" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(share)}>
          <span style={{ width: `${share}%` }} />
        </span>
      </div>
      <div className="stat">
        <span className="stat-label">Assets</span>
        <span className="stat-value">{organization.assetsCount}</span>
      </div>
    </section>
  );
}
