import { Link } from 'wouter';
import type { PaymentPlanView } from '@/domain/contract/billing.ts';
import type { RoleName } from '@/domain/roles.ts';
import { formatMoney, plural } from '@/lib/format.ts';
import { Icon } from '@/ui/icons.tsx';
import { pathTo } from '@/domain/pages.ts';

/** Whole amounts without ".00": "$899", but "$899.50" stays as it is. */
function price(cents: number, currency: string): string {
  return formatMoney(cents, currency).replace(/\.00$/, '');
}

/** "2 TB", "0.5 TB". */
function storage(tb: number): string {
  return `${Number(tb.toFixed(2))} TB`;
}

/** Where a plan's button leads, by who is looking (C§6: only the owner buys); null for staff. */
function planAction(plan: PaymentPlanView, role: RoleName | null, featured: boolean) {
  const look = `btn btn-block ${featured ? 'btn-success' : 'btn-primary'}`;
  if (role === 'OWNER') {
    return (
      <Link href={`${pathTo('settings')}?tab=subscription&plan=${plan.id}`} className={look} aria-label={`Choose ${plan.name}`}>
        Choose {plan.name}
      </Link>
    );
  }
  if (role === 'USER') return <p className="pricing-plan-note">Ask your organization's owner to subscribe.</p>;
  // Staff do not buy plans: they set credits on the organization page.
  if (role) return null;
  return (
    <Link href={pathTo('register')} className={look} aria-label={`Get started with ${plan.name}`}>
      Get started
    </Link>
  );
}

/** One plan: its price per month (billed yearly) and per year, credits, storage, term and kit. */
export function PlanCard({ plan, role, featured }: { plan: PaymentPlanView; role: RoleName | null; featured: boolean }) {
  const action = planAction(plan, role, featured);
  const features = [
    `${plural(plan.monthlyCredits, 'credit')} every month`,
    `${storage(plan.storage)} of storage for your footage`,
    `${plan.termMonths}-month term, renewed yearly`,
    ...(plan.kitType ? [`${plan.kitType} shipped with your first subscription`] : []),
    'First version within 48 business hours',
    'Change requests use no extra credit',
  ];
  return (
    <article className={`pricing-plan-card${featured ? ' is-featured' : ''}`} aria-labelledby={`plan-${plan.id}`} data-testid="plan-card">
      {featured && <span className="pricing-plan-ribbon">Recommended</span>}
      <h2 id={`plan-${plan.id}`} className="pricing-plan-name">
        {plan.name}
      </h2>
      <p className="pricing-plan-credits">
        <strong>{plan.monthlyCredits}</strong> {plan.monthlyCredits === 1 ? 'video' : 'videos'} a month
      </p>
      <div className="pricing-plan-price">
        <span className="pricing-plan-amount" data-testid="plan-price-month">
          {price(plan.pricePerMonth, plan.currency)}
        </span>
        <span className="pricing-plan-per">/ month</span>
      </div>
      <p className="pricing-plan-billing" data-testid="plan-price-year">
        Billed yearly: {price(plan.pricePerYear, plan.currency)} per year
      </p>
      {action && <div className="pricing-plan-action">{action}</div>}
      <ul className="pricing-plan-features">
        {features.map((feature) => (
          <li key={feature}>
            <Icon name="check" size={16} className="pricing-plan-check" />
            <span>{feature}</span>
          </li>
        ))}
      </ul>
    </article>
  );
}
