import { useState } from 'react';
import { BILLING_MESSAGES } from '@/domain/billing.ts';
import type { SubscriptionView } from '@/domain/contract/billing.ts';
import type { CreditDetail } from '@/domain/contract/customers.ts';
import { formatDate, formatMoney } from '@/lib/format.ts';
import { cancelSubscription } from '@/shared/billing/api/cancel-subscription.ts';
import { Badge } from '@/ui/badge.tsx';
import { Button } from '@/ui/button.tsx';
import { ConfirmModal } from '@/ui/confirm-modal.tsx';
import { cardLabel } from '../checkout.ts';

const TONE = { active: 'success', canceled: 'warning', inactive: 'neutral' } as const;

/**
 * The organization's subscription: plan, status, renewal (or end), the next monthly credits,
 * the card; the owner may cancel it (it runs to the end of the paid term).
 */
export function CurrentSubscription({
  organizationId,
  subscription,
  credits,
  renewalPrice,
  canManage,
  onCancelled,
}: {
  organizationId: number;
  subscription: SubscriptionView;
  credits: CreditDetail | null;
  /** The plan's price today: a renewal is charged at it, whatever coupon the first term had. */
  renewalPrice: number | null;
  canManage: boolean;
  onCancelled: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const running = subscription.status === 'active';
  const cancelled = subscription.status === 'canceled';
  return (
    <section className="card subscription-card" aria-label="Your subscription">
      <header className="card-head">
        <div>
          <p className="eyebrow">Your subscription</p>
          <h2>{subscription.plan.name}</h2>
        </div>
        <Badge tone={TONE[subscription.status]}>{subscription.status}</Badge>
      </header>
      {cancelled && (
        <p className="side-note subscription-note" role="status">
          Cancelled: your credits and storage keep working until {formatDate(subscription.renewableAt)}. It will not renew.
        </p>
      )}
      {subscription.state === 'past_due' && running && (
        <p className="side-note subscription-note" role="status">
          The renewal payment did not go through; we try the card again over the next days.
        </p>
      )}
      <dl className="kv">
        <div>
          <dt>{cancelled ? 'Ends on' : subscription.status === 'inactive' ? 'Ended on' : 'Renews on'}</dt>
          <dd data-testid="subscription-renewal">
            {formatDate(subscription.renewableAt)}
            {running && renewalPrice !== null && ` at ${formatMoney(renewalPrice, subscription.currency)}`}
          </dd>
        </div>
        {subscription.status !== 'inactive' && (
          <div>
            <dt>Next monthly credits</dt>
            <dd>{credits?.renewDate ? formatDate(credits.renewDate) : '—'}</dd>
          </div>
        )}
        <div>
          <dt>Started</dt>
          <dd>{formatDate(subscription.startDate)}</dd>
        </div>
        <div>
          <dt>Paid for this term</dt>
          <dd>{formatMoney(subscription.amount, subscription.currency)}</dd>
        </div>
        <div>
          <dt>Card</dt>
          <dd>{subscription.card ? cardLabel(subscription.card) : '—'}</dd>
        </div>
      </dl>
      {running && canManage && (
        <div className="subscription-actions">
          <Button variant="ghost" className="btn-danger-ghost" onClick={() => setConfirming(true)}>
            Cancel subscription
          </Button>
        </div>
      )}
      {confirming && (
        <ConfirmModal
          title="Cancel subscription"
          confirmLabel="Cancel subscription"
          cancelLabel="Keep it"
          variant="danger"
          onClose={() => setConfirming(false)}
          onConfirm={async () => {
            try {
              await cancelSubscription(organizationId);
            } catch {
              return BILLING_MESSAGES.deleteFailed;
            }
            onCancelled();
          }}
        >
          <p className="modal-lead">
            Your {subscription.plan.name} subscription will not renew. Nothing is refunded: your credits and storage keep working until{' '}
            <strong>{formatDate(subscription.renewableAt)}</strong>.
          </p>
        </ConfirmModal>
      )}
    </section>
  );
}
