import { isOnboardingComplete } from '@/domain/organization-rules.ts';
import { businessToday } from '@/domain/business-calendar.ts';
import type { OrganizationRow } from '@/domain/contract/customers.ts';
import { formatTb, formatUsedSpace, tbToBytes } from '@/domain/bytes.ts';
import { creditStatus } from '@/domain/credits.ts';
import { creditPeriodLabel } from '@/domain/subscription.ts';
import { formatDate } from '@/lib/format.ts';
import { Badge } from '@/ui/badge.tsx';

const SUBSCRIPTION_TONE = { active: 'success', canceled: 'warning', inactive: 'neutral' } as const;

/** The expanded part of a customers row: plan, credits, storage and onboarding at a glance. */
export function CustomerDetails({ row }: { row: OrganizationRow }) {
  const status = creditStatus(row.startDate, row.endDate, businessToday());
  return (
    <div className="row-details">
      <dl className="kv kv-grid">
        <div>
          <dt>Subscription</dt>
          <dd>
            <Badge tone={SUBSCRIPTION_TONE[row.subscriptionStatus]}>{row.subscriptionStatus}</Badge>
          </dd>
        </div>
        <div>
          <dt>Credits</dt>
          <dd>
            <Badge tone={status === 'ACTIVE' ? 'success' : 'neutral'}>{status}</Badge> {row.usedCredits} of {row.activeCredits} used
          </dd>
        </div>
        <div>
          <dt>Per interval</dt>
          <dd>
            {row.creditsPerInterval} every {creditPeriodLabel(row.interval)}
          </dd>
        </div>
        <div>
          <dt>Valid</dt>
          <dd>{row.startDate ? `${formatDate(row.startDate)} – ${formatDate(row.endDate)}` : 'No plan yet'}</dd>
        </div>
        <div>
          <dt>Storage</dt>
          <dd>
            {formatUsedSpace(row.usedSpace)} of {formatTb(tbToBytes(row.storage))}
          </dd>
        </div>
        <div>
          <dt>Onboarding</dt>
          <dd>{isOnboardingComplete(row.statusId) ? 'Complete' : 'In progress'}</dd>
        </div>
        <div>
          <dt>Tracking code</dt>
          <dd>{row.trackingCode ?? '—'}</dd>
        </div>
        <div>
          <dt>Assets link</dt>
          <dd>
            {row.assetsLink ? (
              <a href={row.assetsLink} target="_blank" rel="noreferrer">
                {row.assetsLink}
              </a>
            ) : (
              '—'
            )}
          </dd>
        </div>
      </dl>
    </div>
  );
}
