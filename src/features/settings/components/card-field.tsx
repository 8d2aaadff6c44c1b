import type { PaymentMethodView } from '@/domain/contract/billing.ts';
import { cardBrand } from '@/domain/billing.ts';
import { Icon } from '@/ui/icons.tsx';
import { TextField } from '@/ui/text-field.tsx';
import { cardLabel, formatCardNumber, formatExpiryInput, type CardKey } from '../checkout.ts';
import type { FieldProps } from './billing-fields.tsx';
import { StripeCard, type StripeCardHandle } from './stripe-card.tsx';

interface Props {
  provider: 'embedded' | 'stripe';
  publishableKey: string | null;
  field: (key: CardKey) => FieldProps;
  /** A card already tokenized for this checkout: shown by brand and last four digits only. */
  tokenized: PaymentMethodView | null;
  onReplace: () => void;
  /** The card as a whole: a decline (402) or a card the server cannot use. */
  error: string | null;
  disabled: boolean;
  onStripeHandle: (handle: StripeCardHandle | null) => void;
}

/**
 * The card. Embedded mode: number, expiry (MM/YY), CVC and name, checked in the browser with
 * the domain's rules and tokenized on submit; Stripe mode: Stripe's own element. Either way only
 * the payment method's id and display data leave this block.
 */
export function CardField({ provider, publishableKey, field, tokenized, onReplace, error, disabled, onStripeHandle }: Props) {
  const number = field('card.number');
  const expiry = field('card.expiry');
  const brand = cardBrand(number.value);
  return (
    <div className="card-field" data-testid="card-field">
      {tokenized ? (
        <div className="card-saved">
          <Icon name="lock" size={18} />
          <span>{cardLabel(tokenized)}</span>
          <button type="button" className="link-button" onClick={onReplace} disabled={disabled}>
            Use another card
          </button>
        </div>
      ) : provider === 'stripe' ? (
        publishableKey ? (
          <StripeCard publishableKey={publishableKey} disabled={disabled} onHandle={onStripeHandle} />
        ) : (
          <p className="form-error" role="alert">
            Online payment is not configured on this server. Please contact support.
          </p>
        )
      ) : (
        <>
          <TextField
            label="Card number"
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="1234 1234 1234 1234"
            className="card-number"
            {...number}
            error={error ?? number.error}
            onChange={(value) => number.onChange(formatCardNumber(value))}
            hint={
              brand !== 'unknown' ? (
                <span className="card-brand">{brand === 'amex' ? 'American Express' : brand.charAt(0).toUpperCase() + brand.slice(1)}</span>
              ) : undefined
            }
          />
          <div className="form-row">
            <TextField
              label="Expiration (MM/YY)"
              inputMode="numeric"
              autoComplete="cc-exp"
              placeholder="MM/YY"
              maxLength={7}
              {...expiry}
              onChange={(value) => expiry.onChange(formatExpiryInput(value, expiry.value))}
            />
            <TextField
              label="CVC"
              inputMode="numeric"
              autoComplete="cc-csc"
              placeholder={brand === 'amex' ? '4 digits' : '3 digits'}
              maxLength={4}
              {...field('card.cvc')}
            />
          </div>
        </>
      )}
      {!tokenized && <TextField label="Name on card" autoComplete="cc-name" {...field('card.name')} />}
      {error && (tokenized || provider === 'stripe') && (
        <p className="field-error card-error" role="alert">
          {error}
        </p>
      )}
      <p className="field-hint card-note">
        <Icon name="lock" size={14} />{' '}
        {provider === 'stripe'
          ? 'Your card is handled by Stripe; Cutdesk never sees its number.'
          : 'Your card number and security code are sent once to our payment service and never stored.'}
      </p>
    </div>
  );
}
