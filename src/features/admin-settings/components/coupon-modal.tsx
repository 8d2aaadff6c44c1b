import { useCallback, useState } from 'react';
import { CATALOG_MESSAGES, isCouponCodeShape, normalizeCouponCode } from '@/domain/billing.ts';
import type { CouponBody, StaffCoupon } from '@/domain/contract/billing.ts';
import { isIsoDate } from '@/domain/subscription.ts';
import { useFormSubmit } from '@/lib/form-errors.ts';
import { Button } from '@/ui/button.tsx';
import { Modal } from '@/ui/modal.tsx';
import { TextField } from '@/ui/text-field.tsx';
import { useForm } from '@/ui/use-form.ts';
import { saveCoupon } from '@/shared/billing/api/save-coupon.ts';
import { centsToInput, parseMoneyInput } from '../money-input.ts';

type Field = 'code' | 'percentOff' | 'amountOff' | 'validUntil' | 'maxRedemptions';
type Kind = 'percent' | 'amount';

const whole = (text: string, min: number, max: number) => {
  const value = text.trim().replace(/,/g, '');
  return /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max ? Number(value) : null;
};

/** The server's coupon rules; only the discount of the chosen kind is checked and sent. */
function check(v: Record<Field, string>, kind: Kind, timesRedeemed: number): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  if (!v.code.trim()) errors.code = CATALOG_MESSAGES.codeRequired;
  else if (!isCouponCodeShape(v.code)) errors.code = CATALOG_MESSAGES.codeShape;
  if (kind === 'percent' && whole(v.percentOff, 1, 100) === null) errors.percentOff = 'Must be a whole number from 1 to 100.';
  if (kind === 'amount') {
    const cents = parseMoneyInput(v.amountOff);
    if (cents === null || cents < 1 || cents > 1_200_000_000) errors.amountOff = 'Enter an amount like 50.00.';
  }
  if (v.validUntil && !isIsoDate(v.validUntil)) errors.validUntil = CATALOG_MESSAGES.dateInvalid;
  const max = whole(v.maxRedemptions, 1, 1_000_000);
  if (v.maxRedemptions.trim() && max === null) errors.maxRedemptions = 'Must be a whole number from 1 to 1000000, or empty for no limit.';
  else if (max !== null && max < timesRedeemed) errors.maxRedemptions = CATALOG_MESSAGES.maxBelowRedeemed(timesRedeemed);
  return errors;
}

/** Creates a coupon or edits one (its code stays). Exactly one of percent off and amount off. */
export function CouponModal({
  coupon,
  currency,
  onClose,
  onSaved,
}: {
  coupon: StaffCoupon | null;
  currency: string;
  onClose: () => void;
  onSaved: (coupon: StaffCoupon) => void;
}) {
  const [kind, setKind] = useState<Kind>(coupon?.amountOff != null ? 'amount' : 'percent');
  const form = useForm<Field>(
    {
      code: coupon?.code ?? '',
      percentOff: coupon?.percentOff != null ? String(coupon.percentOff) : '',
      amountOff: coupon?.amountOff != null ? centsToInput(coupon.amountOff) : '',
      validUntil: coupon?.validUntil ?? '',
      maxRedemptions: coupon?.maxRedemptions != null ? String(coupon.maxRedemptions) : '',
    },
    useCallback((v: Record<Field, string>) => check(v, kind, coupon?.timesRedeemed ?? 0), [kind, coupon]),
  );
  const { busy, error, submit: run } = useFormSubmit(form, coupon ? undefined : { code: CATALOG_MESSAGES.codeExists });

  const submit = (event: React.FormEvent) =>
    run(event, async () => {
      const v = form.values;
      const body: CouponBody = {
        code: normalizeCouponCode(v.code),
        percentOff: kind === 'percent' ? whole(v.percentOff, 1, 100) : null,
        amountOff: kind === 'amount' ? parseMoneyInput(v.amountOff) : null,
        validUntil: v.validUntil || null,
        maxRedemptions: v.maxRedemptions.trim() ? whole(v.maxRedemptions, 1, 1_000_000) : null,
        retired: coupon?.retired ?? false,
      };
      onSaved(await saveCoupon(coupon?.code ?? null, body));
    });

  return (
    <Modal title={coupon ? `Edit ${coupon.code}` : 'New coupon'} onClose={onClose} width={560}>
      <form noValidate onSubmit={submit} className="coupon-form">
        {error && (
          <div className="form-error" role="alert">
            {error}
          </div>
        )}
        <TextField
          label="Code"
          autoComplete="off"
          className="coupon-code-field"
          disabled={coupon !== null}
          hint={coupon ? 'A code cannot be changed: create a new coupon instead.' : 'Letters, digits, - and _. Customers may type it in any case.'}
          {...form.field('code')}
        />
        <fieldset className="role-choice">
          <legend>Discount</legend>
          <label>
            <input type="radio" name="kind" value="percent" checked={kind === 'percent'} onChange={() => setKind('percent')} />
            Percent off
          </label>
          <label>
            <input type="radio" name="kind" value="amount" checked={kind === 'amount'} onChange={() => setKind('amount')} />
            Amount off
          </label>
        </fieldset>
        <div className="form-row">
          {kind === 'percent' ? (
            <TextField
              label="Percent off"
              inputMode="numeric"
              autoComplete="off"
              placeholder="10"
              hint="Of the first year's price"
              {...form.field('percentOff')}
            />
          ) : (
            <TextField
              label={`Amount off (${currency.toUpperCase()})`}
              inputMode="decimal"
              autoComplete="off"
              placeholder="50.00"
              hint="Off the first year's price"
              {...form.field('amountOff')}
            />
          )}
          <TextField label="Valid until" type="date" hint="Last day it can be used; empty for no end" {...form.field('validUntil')} />
        </div>
        <TextField
          label="Maximum redemptions"
          inputMode="numeric"
          autoComplete="off"
          placeholder="No limit"
          hint={
            coupon
              ? `Used ${coupon.timesRedeemed} times so far. Each organization can use a code once.`
              : 'Empty for no limit. Each organization can use a code once.'
          }
          {...form.field('maxRedemptions')}
        />
        <div className="modal-actions">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="success" busy={busy}>
            {coupon ? 'Save changes' : 'Create coupon'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
