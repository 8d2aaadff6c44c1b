import type { CouponCheck, PaymentPlanView } from '@/domain/contract/billing.ts';
import { formatDate, formatMoney } from '@/lib/format.ts';
import { Button } from '@/ui/button.tsx';
import { TextField } from '@/ui/text-field.tsx';
import { READ_ONLY_NOTE, couponLabel, type OrderSummary as Summary } from '../checkout.ts';

export type CouponState = { state: 'empty' } | { state: 'checking' } | { state: 'valid'; coupon: CouponCheck } | { state: 'invalid'; message: string };

interface Props {
  plan: PaymentPlanView;
  summary: Summary;
  coupon: CouponState;
  couponCode: string;
  onCouponChange: (code: string) => void;
  onChangePlan: () => void;
  paying: boolean;
  canPay: boolean;
  /** A failure of the whole purchase (409, 503…), shown over the button. */
  error: string | null;
  readOnly: boolean;
}

/**
 * What is bought, before paying: the plan, its price for the term, the coupon's discount, the
 * total and when it renews at which price. The coupon field lives here, next to what it changes.
 */
export function OrderSummary({ plan, summary, coupon, couponCode, onCouponChange, onChangePlan, paying, canPay, error, readOnly }: Props) {
  const money = (cents: number) => formatMoney(cents, summary.currency);
  return (
    <aside className="card order-summary" aria-label="Order summary">
      <header className="card-head">
        <h2>Order summary</h2>
        {!readOnly && (
          <button type="button" className="link-button" onClick={onChangePlan}>
            Change plan
          </button>
        )}
      </header>
      <div className="summary-plan">
        <strong>{plan.name}</strong>
        <span className="muted">
          {plan.monthlyCredits} credits a month · {plan.storage} TB storage · {plan.termMonths}-month term
        </span>
      </div>
      <TextField
        label="Coupon code"
        placeholder="Optional"
        autoComplete="off"
        value={couponCode}
        onChange={onCouponChange}
        error={coupon.state === 'invalid' ? coupon.message : undefined}
        hint={
          coupon.state === 'checking' ? (
            'Checking the code…'
          ) : coupon.state === 'valid' ? (
            <span className="coupon-ok">{`${coupon.coupon.code}: ${couponLabel(coupon.coupon, money)} applied`}</span>
          ) : undefined
        }
      />
      <dl className="kv summary-lines">
        <div>
          <dt>Price for {plan.termMonths} months</dt>
          <dd>{money(summary.price)}</dd>
        </div>
        <div>
          <dt>Discount{coupon.state === 'valid' ? ` (${coupon.coupon.code})` : ''}</dt>
          <dd data-testid="summary-discount">{summary.discount > 0 ? `−${money(summary.discount)}` : money(0)}</dd>
        </div>
        <div className="summary-total">
          <dt>Total due today</dt>
          <dd data-testid="summary-total">{money(summary.total)}</dd>
        </div>
      </dl>
      <p className="summary-renewal">
        Renews on {formatDate(summary.renewsOn)} at {money(summary.price)}; credits granted monthly. You can cancel any time before the renewal.
      </p>
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
      <Button type="submit" variant="success" className="btn-block pay-button" disabled={!canPay || readOnly} busy={paying}>
        {paying ? 'Paying…' : `Pay ${money(summary.total)}`}
      </Button>
      {readOnly && <p className="field-hint summary-readonly">{READ_ONLY_NOTE}</p>}
    </aside>
  );
}
