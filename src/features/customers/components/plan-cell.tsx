import type { OrganizationRow } from '@/domain/contract/customers.ts';
import { Badge } from '@/ui/badge.tsx';

/**
 * The plan of the current subscription; "Free" when the organization has no subscription,
 * "—" when its term was set by staff without a plan bought. A cancelled one says so.
 */
export function PlanCell({ row }: { row: Pick<OrganizationRow, 'planName' | 'subscriptionStatus'> }) {
  if (!row.planName) {
    return row.subscriptionStatus === 'inactive' ? <span className="text-muted">Free</span> : <span title="Term set by staff, no plan bought">—</span>;
  }
  return (
    <span className="plan-cell">
      <span className="plan-cell-name">{row.planName}</span>
      {row.subscriptionStatus !== 'active' && <Badge tone={row.subscriptionStatus === 'canceled' ? 'warning' : 'neutral'}>{row.subscriptionStatus}</Badge>}
    </span>
  );
}
