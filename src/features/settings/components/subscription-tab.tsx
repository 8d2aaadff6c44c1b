import type { CreditDetail } from '@/domain/contract/customers.ts';
import type { Organization } from '@/domain/contract/organizations.ts';
import { formatTb, tbToBytes } from '@/domain/bytes.ts';
import { SUPPORT_EMAIL } from '@/ui/constants.ts';
import { creditPeriodLabel } from '@/domain/subscription.ts';
import { formatDate } from '@/lib/format.ts';
import { Badge } from '@/ui/badge.tsx';

/**
 * The owner's plan, told honestly: there is no online payment yet, so the page shows what the
 * organization has and how to change it.
 */
export function SubscriptionTab({ organization, credits }: { organization: Organization | null; credits: CreditDetail | null }) {
  if (!organization || !credits) return <span className="spinner" role="status" aria-label="Loading" />;
  const quota = tbToBytes(organization.storage);
  const usedShare = quota > 0 ? Math.min(100, (organization.usedSpace / quota) * 100) : 0;
  const hasPlan = credits.startDate !== null;
  return (
    <div className="settings-grid">
      <section className="card" aria-label="Your plan">
        <header className="card-head">
          <h2>Your plan</h2>
          <Badge tone={credits.status === 'ACTIVE' ? 'success' : 'neutral'}>{credits.status}</Badge>
        </header>
        {hasPlan ? (
          <p className="plan-line">
            {credits.creditsPerInterval} credits every {creditPeriodLabel(credits.interval)}, valid from {formatDate(credits.startDate)} to {formatDate(credits.endDate)}.
            {credits.renewable ? ` Next renewal on ${formatDate(credits.renewDate)}.` : ' The plan does not renew.'}
          </p>
        ) : (
          <p className="plan-line">Your organization has no plan yet.</p>
        )}
        <dl className="kv">
          <div>
            <dt>Onboarding</dt>
            <dd>{organization.status.id === 2 ? 'Complete' : 'In progress'}</dd>
          </div>
          <div>
            <dt>Credits this period</dt>
            <dd>
              {credits.usedCredits} of {credits.activeCredits} used
            </dd>
          </div>
        </dl>
      </section>
      <section className="card" aria-label="Storage">
        <header className="card-head">
          <h2>Storage</h2>
        </header>
        <p className="plan-line">
          {formatTb(organization.usedSpace)} used of {formatTb(quota)}
        </p>
        <div className="progress" role="progressbar" aria-label="Storage used" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(usedShare)}>
          <span style={{ width: `${usedShare}%` }} />
        </div>
      </section>
      <section className="card plan-contact" aria-label="Change your plan">
        <h2>Change your plan</h2>
        <p>
          Online payment is not available yet. To subscribe, add credits, extend storage or cancel, write to{' '}
          <a href={`mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent(`Plan of ${organization.name}`)}`}>{SUPPORT_EMAIL}</a> and we change it for you, usually the same business day.
        </p>
      </section>
    </div>
  );
}
