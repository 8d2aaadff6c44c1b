import { useCallback, useState } from 'react';
import { CATALOG_MESSAGES } from '@/domain/billing.ts';
import type { PlanBody, StaffPlan } from '@/domain/contract/billing.ts';
import { useFormSubmit } from '@/lib/form-errors.ts';
import { plural } from '@/lib/format.ts';
import { Button } from '@/ui/button.tsx';
import { Modal } from '@/ui/modal.tsx';
import { TextField } from '@/ui/text-field.tsx';
import { useForm } from '@/ui/use-form.ts';
import { savePlan } from '@/shared/billing/api/save-plan.ts';
import { centsToInput, parseMoneyInput } from '../money-input.ts';

type Field = 'name' | 'monthlyCredits' | 'storage' | 'pricePerMonth' | 'pricePerYear' | 'currency' | 'termMonths' | 'kitType';

const whole = (text: string, min: number, max: number) => {
  const value = text.trim().replace(/,/g, '');
  return /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max ? Number(value) : null;
};

/** The same limits as the server's PlanBodyStruct, so most mistakes show before sending. */
function validate(v: Record<Field, string>): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  if (!v.name.trim() || v.name.length > 60) errors.name = 'Name is required (at most 60 characters).';
  if (whole(v.monthlyCredits, 1, 1000) === null) errors.monthlyCredits = 'Must be a whole number from 1 to 1000.';
  const storage = Number(v.storage.trim());
  if (!/^\d+(\.\d+)?$/.test(v.storage.trim()) || storage <= 0 || storage > 1000) errors.storage = 'Must be more than 0 and at most 1000 TB.';
  const month = parseMoneyInput(v.pricePerMonth);
  if (month === null || month > 100_000_000) errors.pricePerMonth = 'Enter a price like 124.17 (up to 1,000,000.00).';
  const year = parseMoneyInput(v.pricePerYear);
  if (year === null || year > 1_200_000_000) errors.pricePerYear = 'Enter a price like 1,490.00 (up to 12,000,000.00).';
  if (!/^[a-z]{3}$/i.test(v.currency.trim())) errors.currency = 'Must be a three-letter currency code, like usd.';
  if (whole(v.termMonths, 1, 36) === null) errors.termMonths = 'Must be a whole number from 1 to 36.';
  if (v.kitType.trim().length > 60) errors.kitType = 'At most 60 characters.';
  return errors;
}

function toBody(v: Record<Field, string>, retired: boolean): PlanBody {
  return {
    name: v.name.trim(),
    monthlyCredits: whole(v.monthlyCredits, 1, 1000)!,
    storage: Number(v.storage.trim()),
    pricePerMonth: parseMoneyInput(v.pricePerMonth)!,
    pricePerYear: parseMoneyInput(v.pricePerYear)!,
    currency: v.currency.trim().toLowerCase(),
    termMonths: whole(v.termMonths, 1, 36)!,
    kitType: v.kitType.trim() || null,
    retired,
  };
}

/** Creates a payment plan or edits one. Prices are typed in currency units and sent as cents. */
export function PlanModal({ plan, onClose, onSaved }: { plan: StaffPlan | null; onClose: () => void; onSaved: (plan: StaffPlan) => void }) {
  const form = useForm<Field>(
    {
      name: plan?.name ?? '',
      monthlyCredits: plan ? String(plan.monthlyCredits) : '',
      storage: plan ? String(plan.storage) : '',
      pricePerMonth: plan ? centsToInput(plan.pricePerMonth) : '',
      pricePerYear: plan ? centsToInput(plan.pricePerYear) : '',
      currency: plan?.currency ?? 'usd',
      termMonths: plan ? String(plan.termMonths) : '12',
      kitType: plan?.kitType ?? '',
    },
    useCallback(validate, []),
  );
  const [onSale, setOnSale] = useState(true);
  const { busy, error, submit: run } = useFormSubmit(form);
  // Renewals charge in the plan's currency: it stays while subscriptions run on the plan.
  const currencyFixed = plan !== null && plan.subscriptions > 0;
  const currency = /^[a-z]{3}$/i.test(form.values.currency.trim()) ? form.values.currency.trim().toUpperCase() : 'currency';

  const submit = (event: React.FormEvent) =>
    run(event, async () => onSaved(await savePlan(plan?.id ?? null, toBody(form.values, plan ? plan.retired : !onSale))));

  return (
    <Modal title={plan ? `Edit ${plan.name}` : 'New plan'} onClose={onClose} width={640}>
      <form noValidate onSubmit={submit} className="plan-form">
        {plan && plan.subscriptions > 0 && (
          <p className="side-note">
            {plural(plan.subscriptions, 'organization')} {plan.subscriptions === 1 ? 'is' : 'are'} on this plan. What you change here applies to new purchases
            and to each of their next yearly renewals; the term they already paid for runs on as bought.
          </p>
        )}
        {error && (
          <div className="form-error" role="alert">
            {error}
          </div>
        )}
        <TextField label="Name" autoComplete="off" {...form.field('name')} />
        <div className="form-row form-row-3">
          <TextField label="Monthly credits" inputMode="numeric" autoComplete="off" {...form.field('monthlyCredits')} />
          <TextField label="Storage (TB)" inputMode="decimal" autoComplete="off" {...form.field('storage')} />
          <TextField label="Term (months)" inputMode="numeric" autoComplete="off" {...form.field('termMonths')} />
        </div>
        <div className="form-row form-row-3">
          <TextField
            label={`Price per month (${currency})`}
            inputMode="decimal"
            autoComplete="off"
            placeholder="124.17"
            hint="Shown at checkout"
            {...form.field('pricePerMonth')}
          />
          <TextField
            label={`Price per year (${currency})`}
            inputMode="decimal"
            autoComplete="off"
            placeholder="1,490.00"
            hint="Charged once a term"
            {...form.field('pricePerYear')}
          />
          <TextField
            label="Currency"
            autoComplete="off"
            maxLength={3}
            disabled={currencyFixed}
            hint={currencyFixed ? CATALOG_MESSAGES.currencyFixed : 'Three letters, like usd'}
            {...form.field('currency')}
          />
        </div>
        <TextField
          label="Onboarding kit"
          autoComplete="off"
          placeholder="Studio kit"
          hint="Sent with a customer's first purchase. Leave empty for no kit."
          {...form.field('kitType')}
        />
        {!plan && (
          <label className="check-field plan-on-sale">
            <input type="checkbox" checked={onSale} onChange={(e) => setOnSale(e.target.checked)} />
            Put on sale now
            <span className="field-hint">Unticked, the plan is saved off sale (retired) until you bring it back.</span>
          </label>
        )}
        <div className="modal-actions">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="success" busy={busy}>
            {plan ? 'Save changes' : 'Create plan'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
