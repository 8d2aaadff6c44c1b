import { businessToday } from '@/domain/business-calendar.ts';
import type { CreditDetail } from '@/domain/contract/customers.ts';
import { creditPeriodLabel, expiryWarning } from '@/domain/subscription.ts';
import { formatDate, plural } from '@/lib/format.ts';
import { Badge } from '@/ui/badge.tsx';
import { Icon } from '@/ui/icons.tsx';

/** C§2 credits card: status, total, per interval, period and renew date, with the expiry warning under 91 days. */
export function CreditsCard({ credits }: { credits: CreditDetail | null }) {
  if (!credits) {
    return (
      <section className="card credits-card" aria-label="Credits">
        <h2>Credits</h2>
        <span className="spinner" role="status" aria-label="Loading" />
      </section>
    );
  }
  const warning = expiryWarning(credits.endDate, businessToday());
  const active = credits.status === 'ACTIVE';
  return (
    <section className="card credits-card" aria-label="Credits" data-testid="credits-card">
      <header className="card-head">
        <h2>Credits</h2>
        <Badge tone={active ? 'success' : 'neutral'}>{credits.status}</Badge>
      </header>
      <div className="credits-total">
        <span className="credits-number" data-testid="credits-total">
          {credits.activeCredits}
        </span>
        <span className="credits-caption">
          total credits
          <br />
          {credits.usedCredits} used · {Math.max(0, credits.activeCredits - credits.usedCredits)} left
        </span>
      </div>
      <dl className="kv">
        <div>
          <dt>Per interval</dt>
          <dd>{credits.creditsPerInterval}</dd>
        </div>
        <div>
          <dt>Period</dt>
          <dd>{creditPeriodLabel(credits.interval)}</dd>
        </div>
        <div>
          <dt>Renew date</dt>
          <dd>{credits.renewable ? formatDate(credits.renewDate) : 'Does not renew'}</dd>
        </div>
        <div>
          <dt>Valid</dt>
          <dd>{credits.startDate ? `${formatDate(credits.startDate)} – ${formatDate(credits.endDate)}` : 'No plan yet'}</dd>
        </div>
      </dl>
      {warning && (
        <p className="expiry-warning" role="status">
          <Icon name="alert" size={16} />
          {warning.expired
            ? `Your credits expired on ${formatDate(credits.endDate)}.`
            : warning.daysLeft === 0
              ? 'Your credits expire today.'
              : `Your credits expire in ${plural(warning.daysLeft, 'day')}, on ${formatDate(credits.endDate)}.`}
        </p>
      )}
    </section>
  );
}
