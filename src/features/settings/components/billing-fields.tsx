import { useId } from 'react';
import type { BillingField } from '@/domain/billing.ts';
import { TextField } from '@/ui/text-field.tsx';
import { countryOptions } from '../countries.ts';

export interface FieldProps {
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  error?: string | undefined;
}

const LABELS: Record<BillingField, string> = {
  name: 'Full name',
  company: 'Company',
  phone: 'Phone',
  phone2: 'Second phone',
  email: 'E-mail',
  address: 'Address',
  city: 'City',
  code: 'Postal code',
  country: 'Country',
};

const AUTOCOMPLETE: Record<BillingField, string> = {
  name: 'name',
  company: 'organization',
  phone: 'tel',
  phone2: 'tel',
  email: 'email',
  address: 'street-address',
  city: 'address-level2',
  code: 'postal-code',
  country: 'country',
};

/** The country as a list (C§5: it must be chosen, not typed). */
function CountryField({ label, section, value, onChange, onBlur, error }: FieldProps & { label: string; section: string }) {
  const id = useId();
  return (
    <div className={`field ${error ? 'has-error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        autoComplete={`${section} country`}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        <option value="">Select a country…</option>
        {countryOptions().map((c) => (
          <option key={c.code} value={c.code}>
            {c.name}
          </option>
        ))}
      </select>
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The billing or shipping address block (C§3): every field required, each with its own
 * message under it (C§5). Laid out two by two; the address takes a whole row.
 */
export function AddressFields({
  section,
  fields,
  field,
}: {
  section: 'billing' | 'shipping';
  fields: readonly BillingField[];
  field: (name: BillingField) => FieldProps;
}) {
  const text = (name: BillingField, extra: Partial<React.InputHTMLAttributes<HTMLInputElement>> = {}) =>
    fields.includes(name) ? <TextField label={LABELS[name]} autoComplete={`${section} ${AUTOCOMPLETE[name]}`} {...extra} {...field(name)} /> : null;
  return (
    <div className="checkout-fields">
      <div className="form-row">
        {text('name')}
        {text('company')}
      </div>
      <div className="form-row">
        {text('phone', { type: 'tel', inputMode: 'tel' })}
        {fields.includes('phone2') ? text('phone2', { type: 'tel', inputMode: 'tel' }) : text('email', { type: 'email' })}
      </div>
      {fields.includes('phone2') && fields.includes('email') && text('email', { type: 'email' })}
      {text('address')}
      <div className="form-row form-row-3">
        {text('city')}
        {text('code')}
        <CountryField label={LABELS.country} section={section} {...field('country')} />
      </div>
    </div>
  );
}
