import type { PaymentPlanView } from '@/domain/contract/billing.ts';
import { formatMoney } from '@/lib/format.ts';
import { Button } from '@/ui/button.tsx';
import { Icon } from '@/ui/icons.tsx';

/** The plans on sale, side by side; choosing one opens the checkout under them. */
export function PlanCards({
  plans,
  selectedId,
  onSelect,
  disabled,
}: {
  plans: readonly PaymentPlanView[];
  selectedId: number | null;
  onSelect: (plan: PaymentPlanView) => void;
  disabled: boolean;
}) {
  return (
    <div className="plan-cards" role="list" aria-label="Plans">
      {plans.map((plan) => {
        const selected = plan.id === selectedId;
        return (
          <article key={plan.id} role="listitem" aria-label={plan.name} className={`card plan-card ${selected ? 'is-selected' : ''}`}>
            <header>
              <h3>{plan.name}</h3>
              {selected && (
                <span className="plan-chosen">
                  <Icon name="check" size={14} /> Chosen
                </span>
              )}
            </header>
            <p className="plan-price">
              <span className="plan-amount">{formatMoney(plan.pricePerMonth, plan.currency)}</span>
              <span className="plan-per">/ month</span>
            </p>
            <p className="plan-yearly">
              {formatMoney(plan.pricePerYear, plan.currency)} per year · {plan.termMonths}-month term
            </p>
            <ul className="plan-features">
              <li>
                <Icon name="check" size={16} /> {plan.monthlyCredits} credits every month
              </li>
              <li>
                <Icon name="check" size={16} /> {plan.storage} TB storage
              </li>
              {plan.kitType && (
                <li>
                  <Icon name="check" size={16} /> {plan.kitType} shipped with your first order
                </li>
              )}
            </ul>
            <Button
              variant={selected ? 'success' : 'secondary'}
              className="btn-block"
              onClick={() => onSelect(plan)}
              aria-pressed={selected}
              disabled={disabled}
            >
              {selected ? `${plan.name} chosen` : `Choose ${plan.name}`}
            </Button>
          </article>
        );
      })}
    </div>
  );
}
