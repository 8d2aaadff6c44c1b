import { useRef, useState } from 'react';
import { businessToday } from '@/domain/business-calendar.ts';
import { formatTb, formatUsedSpace, tbToBytes } from '@/domain/bytes.ts';
import type { PaymentPlanView } from '@/domain/contract/billing.ts';
import type { CreditDetail } from '@/domain/contract/customers.ts';
import type { Organization } from '@/domain/contract/organizations.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { formatDate } from '@/lib/format.ts';
import { useQuery, useQueryClient } from '@/lib/query.ts';
import { queryKeys } from '@/shared/query/keys.ts';
import { getClientConfig } from '@/lib/client-config.ts';
import { listPlans } from '@/shared/billing/api/list-plans.ts';
import { listSubscriptions } from '@/shared/billing/api/list-subscriptions.ts';
import { Badge } from '@/ui/badge.tsx';
import { SUPPORT_EMAIL } from '@/ui/constants.ts';
import { Icon } from '@/ui/icons.tsx';
import { settingsKeys } from '../api/keys.ts';
import { READ_ONLY_NOTE, canBuy, currentSubscription } from '../checkout.ts';
import { CheckoutForm } from './checkout-form.tsx';
import { CreditsCard } from './credits-card.tsx';
import { CurrentSubscription } from './current-subscription.tsx';
import { InvoicesTable } from './invoices-table.tsx';
import { PlanCards } from './plan-cards.tsx';

function StorageCard({ organization }: { organization: Organization }) {
  const quota = tbToBytes(organization.storage);
  const usedShare = quota > 0 ? Math.min(100, (organization.usedSpace / quota) * 100) : 0;
  return (
    <section className="card" aria-label="Storage">
      <header className="card-head">
        <h2>Storage</h2>
      </header>
      <p className="plan-line">
        {formatUsedSpace(organization.usedSpace)} used of {formatTb(quota)}
      </p>
      <div className="progress" role="progressbar" aria-label="Storage used" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(usedShare)}>
        <span style={{ width: `${usedShare}%` }} />
      </div>
    </section>
  );
}

interface Props {
  organization: Organization | null;
  credits: CreditDetail | null;
  owner: { name: string; email: string };
  /** Staff signed in as the customer: everything shows, nothing can be bought or cancelled. */
  readOnly: boolean;
  /** From `?plan=<id>` (the public pricing page links here with the plan chosen). */
  initialPlanId: number | null;
  /** After a purchase or a cancellation: credits, storage and the top bar change. */
  onChanged: () => void;
}

/**
 * The owner's Subscription tab (issue 11): the running subscription with its invoices and a
 * cancel button, or, when nothing runs, the plans and the checkout.
 */
export function SubscriptionTab({ organization, credits, owner, readOnly, initialPlanId, onChanged }: Props) {
  const organizationId = organization?.id ?? null;
  const client = useQueryClient();
  const enabled = organizationId !== null;
  const subscriptionsQuery = useQuery({
    queryKey: settingsKeys.subscriptions(organizationId ?? 0),
    queryFn: () => listSubscriptions(organizationId!),
    enabled,
  });
  const plansQuery = useQuery({ queryKey: queryKeys.paymentPlans(), queryFn: listPlans, enabled });
  const configQuery = useQuery({ queryKey: settingsKeys.clientConfig(), queryFn: getClientConfig, enabled, staleTime: Infinity });
  const subscriptions = subscriptionsQuery.data ?? null;
  const plans = plansQuery.data ?? null;
  const payments = configQuery.data?.payments ?? null;
  const failed = subscriptionsQuery.error ?? plansQuery.error ?? configQuery.error;
  const error = failed ? errorMessage(failed) : null;
  const [planId, setPlanId] = useState<number | null>(initialPlanId);
  const [justBought, setJustBought] = useState(false);
  const plansRef = useRef<HTMLElement>(null);
  const checkoutRef = useRef<HTMLDivElement>(null);
  const today = businessToday();

  if (error) {
    return (
      <div className="form-error" role="alert">
        {error}
      </div>
    );
  }
  if (!organization || !subscriptions || !plans || !payments) return <span className="spinner" role="status" aria-label="Loading" />;

  const current = currentSubscription(subscriptions);
  const note = readOnly && (
    <p className="side-note checkout-readonly" role="note">
      <Icon name="lock" size={16} /> {READ_ONLY_NOTE}
    </p>
  );

  if (current && !canBuy(current)) {
    return (
      <div className="subscription-view">
        {note}
        {justBought && (
          <p className="inline-notice" role="status">
            <Icon name="check" size={16} /> Thank you! Your {current.plan.name} subscription is active and its first credits are in your account.
          </p>
        )}
        <div className="settings-grid">
          <div className="settings-stack">
            <CurrentSubscription
              organizationId={organization.id}
              subscription={current}
              credits={credits}
              renewalPrice={plans.find((p) => p.id === current.plan.id)?.pricePerYear ?? null}
              canManage={!readOnly}
              onCancelled={() => {
                setJustBought(false);
                // onChanged refreshes the organization, its subscriptions with it.
                onChanged();
              }}
            />
            <InvoicesTable subscription={current} organizationName={organization.name} />
          </div>
          <div className="settings-side">
            <CreditsCard credits={credits} />
            <StorageCard organization={organization} />
          </div>
        </div>
      </div>
    );
  }

  // A plan set up by staff (no subscription here) still runs: the server refuses a purchase
  // until it ends, so the checkout waits too.
  const managedUntil = credits?.renewable && credits.endDate && credits.endDate > today ? credits.endDate : null;
  const plan = managedUntil ? null : (plans.find((p) => p.id === planId) ?? null);
  const choose = (chosen: PaymentPlanView) => {
    setPlanId(chosen.id);
    requestAnimationFrame(() => checkoutRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }));
  };

  return (
    <div className="subscription-view">
      {note}
      <div className="settings-grid">
        <section className="card" aria-label="Your plan">
          <header className="card-head">
            <h2>Your plan</h2>
            <Badge tone={managedUntil ? 'success' : 'neutral'}>{managedUntil ? 'Active' : current ? current.status : 'No subscription'}</Badge>
          </header>
          <p className="plan-line">
            {managedUntil
              ? `Your plan was set up with our team and runs until ${formatDate(managedUntil)}. You can subscribe online once it ends; to change it sooner, write to ${SUPPORT_EMAIL}.`
              : current
                ? `Your ${current.plan.name} subscription ended on ${formatDate(current.renewableAt)}. Choose a plan below to start again.`
                : 'Your organization has no subscription yet. Choose a plan below: credits arrive as soon as you pay, and every month after.'}
          </p>
          {credits && (
            <dl className="kv">
              <div>
                <dt>Credits this period</dt>
                <dd>
                  {credits.usedCredits} of {credits.activeCredits} used ({credits.status})
                </dd>
              </div>
            </dl>
          )}
        </section>
        <StorageCard organization={organization} />
      </div>
      <section className="plans-section" aria-label="Choose a plan" ref={plansRef}>
        <div className="section-head">
          <h2>{managedUntil ? 'Our plans' : 'Choose a plan'}</h2>
          <p className="card-sub">Each plan is paid up front for its term, and its credits arrive every month.</p>
        </div>
        {plans.length === 0 ? (
          <p className="muted">No plans are on sale right now. Please write to support.</p>
        ) : (
          <PlanCards plans={plans} selectedId={plan?.id ?? null} onSelect={choose} disabled={managedUntil !== null} />
        )}
      </section>
      {plan && (
        <div ref={checkoutRef} className="checkout-anchor">
          <CheckoutForm
            key={plan.currency}
            organizationId={organization.id}
            plan={plan}
            payments={payments}
            defaults={{ name: owner.name, email: owner.email, company: organization.name }}
            today={today}
            readOnly={readOnly}
            onChangePlan={() => plansRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' })}
            onPurchased={(subscription) => {
              // Shown at once; onChanged then reads the organization again (credits, storage, top bar).
              client.setQueryData(settingsKeys.subscriptions(organization.id), (list: typeof subscriptions) => [subscription, ...(list ?? [])]);
              setJustBought(true);
              onChanged();
              window.scrollTo({ top: 0, behavior: 'smooth' });
            }}
          />
        </div>
      )}
    </div>
  );
}
