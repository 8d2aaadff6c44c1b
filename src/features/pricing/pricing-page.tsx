import { useAtomValue } from '@/lib/state.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { useQuery } from '@/lib/query.ts';
import { meAtom } from '@/lib/session-state.ts';
import { queryKeys } from '@/shared/query/keys.ts';
import { listPlans } from '@/shared/billing/api/list-plans.ts';
import { Button } from '@/ui/button.tsx';
import { SUPPORT_EMAIL } from '@/ui/constants.ts';
import { Spinner } from '@/ui/empty-state.tsx';
import { PlanCard } from './components/plan-card.tsx';
import { HowItWorks, PricingFaq } from './components/pricing-details.tsx';
import { PricingHeader } from './components/pricing-header.tsx';
import { pathTo } from '@/domain/pages.ts';

/** The middle plan of an odd-sized list is the one we put forward (three plans: the second). */
function featuredIndex(count: number): number {
  return count >= 3 && count % 2 === 1 ? (count - 1) / 2 : -1;
}

/**
 * /pricing: the plans on sale (GET payment-plans, no token), how credits work and the
 * questions people ask before buying. Signed-in customers see it in their shell; anyone else
 * (`standalone`) gets a small header with sign in and create account.
 */
export function PricingPage({ standalone = false }: { standalone?: boolean }) {
  const me = useAtomValue(meAtom);
  const role = me?.role.name ?? null;
  const query = useQuery({ queryKey: queryKeys.paymentPlans(), queryFn: listPlans });
  const plans = query.data ?? null;
  // "Try again" shows the spinner again while it asks, not the old error.
  const error = query.error && !query.isFetching ? errorMessage(query.error) : null;
  const { refetch } = query;

  const featured = featuredIndex(plans?.length ?? 0);
  const content = (
    <div className="pricing">
      <section className="pricing-hero">
        <p className="pricing-eyebrow">Pricing</p>
        <h1>Finished videos every month, one simple yearly plan</h1>
        <p className="pricing-lead">
          Every plan gives your team credits each month. One credit turns a brief and your footage into an edited video, with the first version in 48 business
          hours.
        </p>
      </section>

      {error && (
        <div className="form-error pricing-error" role="alert">
          The plans could not be loaded: {error}{' '}
          <Button variant="secondary" onClick={() => void refetch()}>
            Try again
          </Button>
        </div>
      )}
      {!plans && !error && (
        <div className="pricing-loading">
          <Spinner label="Loading plans" />
        </div>
      )}
      {plans?.length === 0 && (
        <p className="pricing-empty">
          No plans are on sale right now. Write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> and we will set one up for you.
        </p>
      )}
      {plans && plans.length > 0 && (
        <>
          <div className={`pricing-plan-grid pricing-plan-count-${Math.min(plans.length, 4)}`}>
            {plans.map((plan, index) => (
              <PlanCard key={plan.id} plan={plan} role={role} featured={index === featured} />
            ))}
          </div>
          <p className="pricing-fineprint">Prices per month are billed yearly, up front, for a 12-month term. Plans renew every year until cancelled.</p>
        </>
      )}

      <HowItWorks />
      <PricingFaq />
    </div>
  );

  if (!standalone) return content;
  return (
    <div className="pricing-standalone">
      <PricingHeader role={role} />
      <main className="pricing-main">{content}</main>
      <footer className="pricing-footer">
        <span>© {new Date().getFullYear()} Cutdesk</span>
        <a href={pathTo('help')} target="_blank" rel="noreferrer">
          Help
        </a>
      </footer>
    </div>
  );
}
