import { Link } from 'wouter';
import type { OrganizationRow } from '@/domain/contract/customers.ts';
import { optionalLinkRule, trackingCodeRule, isOnboardingComplete } from '@/domain/organization-rules.ts';
import { isSubscriptionActive } from '@/domain/subscription.ts';
import { fieldError } from '@/lib/form-errors.ts';
import { formatDate } from '@/lib/format.ts';
import { Button } from '@/ui/button.tsx';
import { DataTable, type Column } from '@/ui/data-table.tsx';
import { EditableField } from '@/ui/editable-field.tsx';
import { updateOrganization } from '@/shared/organization/api/update-organization.ts';
import { SubscriptionBadge } from './subscription-badge.tsx';
import { pathTo } from '@/domain/pages.ts';

/** A§2 onboarding tabs 0 and 1: editable assets link and tracking id; Complete unless already completed. */
export function OnboardingTable({
  rows,
  loading,
  completed,
  onChanged,
  onComplete,
}: {
  rows: OrganizationRow[];
  loading: boolean;
  completed: boolean;
  onChanged: (row: OrganizationRow) => void;
  onComplete: (row: OrganizationRow) => void;
}) {
  const columns: Column<OrganizationRow>[] = [
    {
      key: 'organization',
      header: 'Organization',
      cell: (r) => (
        <Link href={pathTo('organization', { id: r.id })} className="strong-link">
          {r.name}
        </Link>
      ),
    },
    {
      key: 'assets',
      header: 'Assets link',
      width: '22%',
      cell: (r) => (
        <EditableField
          label={`Assets link of ${r.name}`}
          hideLabel
          value={r.assetsLink}
          placeholder="https://…"
          validate={optionalLinkRule}
          onSave={async (value) => {
            try {
              const saved = await updateOrganization(r.id, { assetsLink: value || null });
              onChanged({ ...r, assetsLink: saved.assetsLink });
            } catch (e) {
              return fieldError(e, 'assetsLink');
            }
          }}
        />
      ),
    },
    { key: 'subscription', header: 'Subscription', cell: (r) => <SubscriptionBadge status={r.subscriptionStatus} /> },
    { key: 'kit', header: 'Kit', nowrap: true, cell: (r) => (r.kitOrdered ? 'Ordered' : 'Not ordered') },
    { key: 'kitType', header: 'Kit type', cell: (r) => r.kitType ?? '—' },
    { key: 'orderDate', header: 'Order date', nowrap: true, cell: (r) => formatDate(r.kitOrderedAt) },
    {
      key: 'tracking',
      header: 'Tracking id',
      width: '16%',
      cell: (r) => (
        <EditableField
          label={`Tracking id of ${r.name}`}
          hideLabel
          value={r.trackingCode}
          placeholder={isSubscriptionActive(r.renewableAt, r.isCancelled) ? 'Tracking id' : 'No active subscription'}
          disabled={!isSubscriptionActive(r.renewableAt, r.isCancelled)}
          disabledHint="Available while the subscription is active."
          validate={trackingCodeRule}
          onSave={async (value) => {
            try {
              const saved = await updateOrganization(r.id, { trackingCode: value || null });
              onChanged({ ...r, trackingCode: saved.trackingCode });
            } catch (e) {
              return fieldError(e, 'trackingCode');
            }
          }}
        />
      ),
    },
  ];
  if (!completed) {
    columns.push({
      key: 'complete',
      header: <span className="sr-only">Complete</span>,
      align: 'right',
      cell: (r) =>
        isOnboardingComplete(r.statusId) ? null : (
          <Button variant="success" className="btn-small" onClick={() => onComplete(r)} aria-label={`Complete ${r.name}`}>
            Complete
          </Button>
        ),
    });
  }
  return (
    <DataTable
      label={completed ? 'Completed customers onboarding' : 'Customers onboarding'}
      columns={columns}
      rows={rows}
      rowKey={(r) => r.id}
      loading={loading}
      rowClassName={() => (completed ? 'dt-row-muted' : '')}
      empty={completed ? 'No completed onboardings yet.' : 'Every customer is onboarded.'}
    />
  );
}
