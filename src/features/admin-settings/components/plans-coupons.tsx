import { useState } from 'react';
import { businessToday } from '@/domain/business-calendar.ts';
import type { PlanBody, StaffCoupon, StaffPlan } from '@/domain/contract/billing.ts';
import { errorMessage } from '@/lib/api-client.ts';
import { formatDate, formatMoney, plural } from '@/lib/format.ts';
import { useQuery, useQueryClient } from '@/lib/query.ts';
import { queryKeys } from '@/shared/query/keys.ts';
import { Badge } from '@/ui/badge.tsx';
import { Button } from '@/ui/button.tsx';
import { ConfirmModal } from '@/ui/confirm-modal.tsx';
import { DataTable, type Column } from '@/ui/data-table.tsx';
import { Icon } from '@/ui/icons.tsx';
import { listCoupons } from '@/shared/billing/api/list-coupons.ts';
import { listStaffPlans } from '@/shared/billing/api/list-staff-plans.ts';
import { saveCoupon } from '@/shared/billing/api/save-coupon.ts';
import { savePlan } from '@/shared/billing/api/save-plan.ts';
import { couponState, discountLabel } from '../billing-labels.ts';
import { CouponModal } from './coupon-modal.tsx';
import { PlanModal } from './plan-modal.tsx';

const planBody = (plan: StaffPlan, retired: boolean): PlanBody => ({
  name: plan.name,
  monthlyCredits: plan.monthlyCredits,
  storage: plan.storage,
  pricePerMonth: plan.pricePerMonth,
  pricePerYear: plan.pricePerYear,
  currency: plan.currency,
  termMonths: plan.termMonths,
  kitType: plan.kitType,
  retired,
});

const COUPON_TONE = { active: 'success', retired: 'neutral', expired: 'warning', 'used up': 'warning' } as const;

function Price({ cents, currency }: { cents: number; currency: string }) {
  return (
    <span className="price-cell">
      {formatMoney(cents, currency)} <span className="currency-code">{currency.toUpperCase()}</span>
    </span>
  );
}

/** A column header on two lines, so the wide plans table fits the page. */
function TwoLines({ first, second }: { first: string; second: string }) {
  return (
    <span className="th-two-lines">
      {first}
      <br />
      {second}
    </span>
  );
}

/** The "Plans & coupons" tab (SUPERADMIN and ADMIN): what customers can buy, and the codes that discount it. */
export function PlansAndCoupons() {
  const client = useQueryClient();
  const plansQuery = useQuery({ queryKey: queryKeys.staff('plans'), queryFn: listStaffPlans });
  const couponsQuery = useQuery({ queryKey: queryKeys.staff('coupons'), queryFn: listCoupons });
  // A list that never loaded shows as empty with the reason; a failed refresh keeps the rows it had.
  const plans = plansQuery.data ?? (plansQuery.isError ? [] : null);
  const coupons = couponsQuery.data ?? (couponsQuery.isError ? [] : null);
  const planError = plansQuery.error ? errorMessage(plansQuery.error) : null;
  const couponError = couponsQuery.error ? errorMessage(couponsQuery.error) : null;
  const [editingPlan, setEditingPlan] = useState<StaffPlan | 'new' | null>(null);
  const [editingCoupon, setEditingCoupon] = useState<StaffCoupon | 'new' | null>(null);
  const [togglingPlan, setTogglingPlan] = useState<StaffPlan | null>(null);
  const [retiringCoupon, setRetiringCoupon] = useState<StaffCoupon | null>(null);

  // A plan change reaches the public plans too (pricing page, customers' Subscription tab).
  const plansChanged = () =>
    Promise.all([client.invalidateQueries({ queryKey: queryKeys.staff('plans') }), client.invalidateQueries({ queryKey: queryKeys.paymentPlans() })]);
  const couponsChanged = () => client.invalidateQueries({ queryKey: queryKeys.staff('coupons') });

  // A coupon's amount is in the currency of the plan it is used on: the plans on sale share one.
  const currency = plans?.find((p) => !p.retired)?.currency ?? plans?.[0]?.currency ?? 'usd';
  const today = businessToday();

  const planColumns: Column<StaffPlan>[] = [
    {
      key: 'name',
      header: 'Plan',
      cell: (p) => <span className="strong-link plan-name">{p.name}</span>,
    },
    { key: 'credits', header: <TwoLines first="Monthly" second="credits" />, align: 'right', cell: (p) => p.monthlyCredits },
    { key: 'storage', header: 'Storage', align: 'right', nowrap: true, cell: (p) => `${p.storage} TB` },
    { key: 'month', header: 'Per month', align: 'right', nowrap: true, cell: (p) => <Price cents={p.pricePerMonth} currency={p.currency} /> },
    { key: 'year', header: 'Per year', align: 'right', nowrap: true, cell: (p) => <Price cents={p.pricePerYear} currency={p.currency} /> },
    { key: 'term', header: 'Term', nowrap: true, cell: (p) => plural(p.termMonths, 'month') },
    { key: 'kit', header: 'Kit', nowrap: true, cell: (p) => p.kitType ?? <span className="text-muted">No kit</span> },
    { key: 'subscriptions', header: <TwoLines first="Active" second="subscriptions" />, align: 'right', cell: (p) => p.subscriptions },
    { key: 'status', header: 'Status', cell: (p) => <Badge tone={p.retired ? 'neutral' : 'success'}>{p.retired ? 'Retired' : 'Active'}</Badge> },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      align: 'right',
      nowrap: true,
      cell: (p) => (
        <span className="row-actions">
          <Button variant="secondary" className="btn-small" onClick={() => setEditingPlan(p)} aria-label={`Edit ${p.name}`}>
            Edit
          </Button>
          <Button
            variant="ghost"
            className={`btn-small ${p.retired ? '' : 'btn-danger-ghost'}`}
            onClick={() => setTogglingPlan(p)}
            aria-label={`${p.retired ? 'Bring back' : 'Retire'} ${p.name}`}
          >
            {p.retired ? 'Bring back' : 'Retire'}
          </Button>
        </span>
      ),
    },
  ];

  const couponColumns: Column<StaffCoupon>[] = [
    { key: 'code', header: 'Code', cell: (c) => <code className="coupon-code">{c.code}</code> },
    { key: 'discount', header: 'Discount', nowrap: true, cell: (c) => discountLabel(c, currency) },
    {
      key: 'validUntil',
      header: 'Valid until',
      nowrap: true,
      cell: (c) => (c.validUntil ? formatDate(c.validUntil) : <span className="text-muted">No end</span>),
    },
    {
      key: 'redemptions',
      header: 'Redemptions',
      nowrap: true,
      cell: (c) => (
        <span className="redemptions">
          {c.timesRedeemed} / {c.maxRedemptions ?? '∞'}
          {c.maxRedemptions === null && <span className="sr-only"> (no limit)</span>}
        </span>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      cell: (c) => {
        const state = couponState(c, today);
        return <Badge tone={COUPON_TONE[state]}>{state}</Badge>;
      },
    },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      align: 'right',
      nowrap: true,
      cell: (c) => (
        <span className="row-actions">
          <Button variant="secondary" className="btn-small" onClick={() => setEditingCoupon(c)} aria-label={`Edit ${c.code}`}>
            Edit
          </Button>
          {!c.retired && (
            <Button variant="ghost" className="btn-small btn-danger-ghost" onClick={() => setRetiringCoupon(c)} aria-label={`Retire ${c.code}`}>
              Retire
            </Button>
          )}
        </span>
      ),
    },
  ];

  return (
    <div className="plans-coupons">
      <section className="card" aria-label="Payment plans">
        <header className="card-head">
          <div>
            <h2>Payment plans</h2>
            <p className="card-sub">What customers can buy at checkout. A retired plan is off sale; organizations on it keep it.</p>
          </div>
          <Button variant="success" onClick={() => setEditingPlan('new')}>
            <Icon name="plus" size={18} />
            New plan
          </Button>
        </header>
        {planError && (
          <div className="form-error" role="alert">
            {planError}
          </div>
        )}
        <DataTable
          label="Payment plans"
          columns={planColumns}
          rows={plans ?? []}
          rowKey={(p) => p.id}
          loading={plans === null}
          rowClassName={(p) => (p.retired ? 'dt-row-muted' : '')}
          empty="No plans yet: customers have nothing to buy."
        />
      </section>

      <section className="card" aria-label="Coupons">
        <header className="card-head">
          <div>
            <h2>Coupons</h2>
            <p className="card-sub">Codes customers type at checkout. A coupon discounts the first year; renewals are at the plan's full price.</p>
          </div>
          <Button variant="success" onClick={() => setEditingCoupon('new')}>
            <Icon name="plus" size={18} />
            New coupon
          </Button>
        </header>
        {couponError && (
          <div className="form-error" role="alert">
            {couponError}
          </div>
        )}
        <DataTable
          label="Coupons"
          columns={couponColumns}
          rows={coupons ?? []}
          rowKey={(c) => c.code}
          loading={coupons === null}
          rowClassName={(c) => (couponState(c, today) === 'active' ? '' : 'dt-row-muted')}
          empty="No coupons yet."
        />
      </section>

      {togglingPlan && (
        <ConfirmModal
          title={togglingPlan.retired ? `Bring back ${togglingPlan.name}?` : `Retire ${togglingPlan.name}?`}
          confirmLabel={togglingPlan.retired ? 'Bring back' : 'Retire'}
          cancelLabel="Cancel"
          variant={togglingPlan.retired ? 'primary' : 'danger'}
          onClose={() => setTogglingPlan(null)}
          onConfirm={async () => {
            try {
              await savePlan(togglingPlan.id, planBody(togglingPlan, !togglingPlan.retired));
              await plansChanged();
            } catch (e) {
              return errorMessage(e);
            }
          }}
        >
          {togglingPlan.retired ? (
            <p>
              It goes back on sale at once, at {formatMoney(togglingPlan.pricePerYear, togglingPlan.currency)} a year: customers can choose it at checkout
              again.
            </p>
          ) : (
            <>
              <p>It comes off sale at once: customers can no longer choose it at checkout.</p>
              {togglingPlan.subscriptions > 0 ? (
                <p>
                  {togglingPlan.subscriptions === 1 ? 'The organization on it keeps it.' : `The ${togglingPlan.subscriptions} organizations on it keep it.`}{' '}
                  Each keeps the price it paid until its term ends; then it renews on this plan at the plan's yearly price at that time (now{' '}
                  {formatMoney(togglingPlan.pricePerYear, togglingPlan.currency)}), unless it cancels first.
                </p>
              ) : (
                <p>No organization is on this plan.</p>
              )}
              <p className="text-muted">You can bring it back later.</p>
            </>
          )}
        </ConfirmModal>
      )}
      {retiringCoupon && (
        <ConfirmModal
          title={`Retire ${retiringCoupon.code}?`}
          confirmLabel="Retire"
          cancelLabel="Cancel"
          variant="danger"
          onClose={() => setRetiringCoupon(null)}
          onConfirm={async () => {
            const c = retiringCoupon;
            try {
              await saveCoupon(c.code, {
                percentOff: c.percentOff,
                amountOff: c.amountOff,
                validUntil: c.validUntil,
                maxRedemptions: c.maxRedemptions,
                retired: true,
              });
              await couponsChanged();
            } catch (e) {
              return errorMessage(e);
            }
          }}
        >
          <p>
            Customers can no longer use it at checkout.{' '}
            {retiringCoupon.timesRedeemed > 0
              ? `The ${plural(retiringCoupon.timesRedeemed, 'purchase')} made with it keep the discount they got on their first year.`
              : 'Nobody has used it yet.'}
          </p>
        </ConfirmModal>
      )}
      {editingPlan && (
        <PlanModal
          plan={editingPlan === 'new' ? null : editingPlan}
          onClose={() => setEditingPlan(null)}
          onSaved={() => {
            setEditingPlan(null);
            void plansChanged();
          }}
        />
      )}
      {editingCoupon && (
        <CouponModal
          coupon={editingCoupon === 'new' ? null : editingCoupon}
          currency={currency}
          onClose={() => setEditingCoupon(null)}
          onSaved={() => {
            setEditingCoupon(null);
            void couponsChanged();
          }}
        />
      )}
    </div>
  );
}
