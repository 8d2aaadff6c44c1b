import { useCallback, useMemo, useRef, useState, type FormEvent } from 'react';
import { BILLING_MESSAGES, SHIPPING_FIELDS, BILLING_FIELDS, cardDigits, fullExpiryYear, type BillingField } from '@/domain/billing.ts';
import type { PaymentMethodView, PaymentPlanView, SubscriptionView } from '@/domain/contract/billing.ts';
import { ApiError, errorMessage } from '@/lib/api-client.ts';
import { addCard } from '@/shared/billing/api/add-card.ts';
import { createSubscription } from '@/shared/billing/api/create-subscription.ts';
import {
  attemptKey,
  checkoutErrors,
  emptyCheckout,
  orderSummary,
  parseExpiry,
  serverFieldErrors,
  subscriptionBody,
  type CardKey,
  type CheckoutKey,
} from '../checkout.ts';
import { useForm } from '@/ui/use-form.ts';
import { AddressFields } from './billing-fields.tsx';
import { CardField } from './card-field.tsx';
import { OrderSummary } from './order-summary.tsx';
import { CardTokenError, type StripeCardHandle } from './stripe-card.tsx';
import { useCouponCheck } from './use-coupon-check.ts';

interface Props {
  organizationId: number;
  plan: PaymentPlanView;
  payments: { provider: 'embedded' | 'stripe'; publishableKey: string | null };
  /** Filled in for the owner; every field stays editable. */
  defaults: Partial<Record<BillingField, string>>;
  today: string;
  readOnly: boolean;
  onChangePlan: () => void;
  onPurchased: (subscription: SubscriptionView) => void;
}

/** Emptied once the card is tokenized (or refused): the number and CVC are not kept. */
const SECRET_CARD_KEYS: CardKey[] = ['card.number', 'card.cvc'];

/**
 * The checkout (issue 11, C§3, C§5): billing and shipping details, the card, the coupon and the
 * order summary; pays with one idempotency key per attempt. Errors land where they belong: a
 * decline under the card, field messages under their fields, a conflict over the pay button.
 */
export function CheckoutForm({ organizationId, plan, payments, defaults, today, readOnly, onChangePlan, onPurchased }: Props) {
  const [sameAsBilling, setSameAsBilling] = useState(true);
  const [tokenized, setTokenized] = useState<PaymentMethodView | null>(null);
  const cardMode = tokenized || payments.provider === 'stripe' ? 'name-only' : 'embedded';
  const validate = useCallback(
    (values: Record<CheckoutKey, string>) => checkoutErrors(values, { sameAsBilling, card: cardMode }, today),
    [sameAsBilling, cardMode, today],
  );
  const form = useForm<CheckoutKey>(
    useMemo(() => {
      const initial = emptyCheckout();
      for (const [field, value] of Object.entries(defaults)) if (value) initial[`billing.${field as BillingField}`] = value;
      initial['card.name'] = defaults.name ?? '';
      return initial;
      // The defaults fill the form once; later changes are the owner's.
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }, []),
    validate,
  );
  const { couponCode, coupon, change: onCouponChange, refuse: refuseCoupon } = useCouponCheck(organizationId);
  const [cardError, setCardError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);
  const attempt = useRef<{ key: string; signature: string } | null>(null);
  const stripeHandle = useRef<StripeCardHandle | null>(null);
  const [stripeReady, setStripeReady] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  /** After a refused submit, the first message is brought into view (it may be far from the button). */
  const revealError = () =>
    requestAnimationFrame(() => formRef.current?.querySelector('.has-error, .card-error')?.scrollIntoView({ behavior: 'smooth', block: 'center' }));
  const onStripeHandle = useCallback((handle: StripeCardHandle | null) => {
    stripeHandle.current = handle;
    setStripeReady(handle !== null);
  }, []);

  const summary = orderSummary(plan, coupon.state === 'valid' ? coupon.coupon : null, today);

  /** A card field's change also clears the card's decline message. */
  const field = (key: CheckoutKey) => {
    const props = form.field(key);
    if (!key.startsWith('card.')) return props;
    return {
      ...props,
      onChange: (value: string) => {
        props.onChange(value);
        setCardError(null);
      },
    };
  };

  const replaceCard = () => {
    setTokenized(null);
    setCardError(null);
    form.clear(SECRET_CARD_KEYS);
  };

  const couponBlocks = coupon.state === 'checking' || coupon.state === 'invalid';
  const shownErrors = Object.keys(form.errors).length > 0 || cardError !== null;
  const cardUnavailable = !tokenized && payments.provider === 'stripe' && !stripeReady;
  const canPay = !paying && !readOnly && !couponBlocks && !shownErrors && !cardUnavailable;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (readOnly || paying) return;
    const valid = form.checkAll();
    if (!valid) revealError();
    if (!valid || couponBlocks || cardUnavailable) return;
    setPaying(true);
    setFormError(null);
    setCardError(null);
    const { values } = form;
    let phase: 'card' | 'purchase' = 'card';
    try {
      let card = tokenized;
      if (!card) {
        if (payments.provider === 'stripe') {
          card = await stripeHandle.current!.tokenize(values['card.name'].trim());
        } else {
          const expiry = parseExpiry(values['card.expiry'])!;
          card = await addCard({
            number: cardDigits(values['card.number']),
            expMonth: expiry.month,
            expYear: fullExpiryYear(expiry.year),
            cvc: values['card.cvc'].trim(),
            name: values['card.name'].trim(),
          });
        }
        // From here on only the token and the display data exist.
        form.clear(SECRET_CARD_KEYS);
        setTokenized(card);
      }
      phase = 'purchase';
      const couponSent = coupon.state === 'valid' ? coupon.coupon.code : null;
      attempt.current = attemptKey(attempt.current, { planId: plan.id, coupon: couponSent, paymentMethodId: card.paymentMethodId }, () => crypto.randomUUID());
      const subscription = await createSubscription(
        organizationId,
        subscriptionBody({
          values,
          sameAsBilling,
          planId: plan.id,
          coupon: couponSent,
          paymentMethodId: card.paymentMethodId,
          idempotencyKey: attempt.current.key,
        }),
      );
      attempt.current = null;
      onPurchased(subscription);
    } catch (error) {
      if (error instanceof CardTokenError) setCardError(error.message);
      else if (error instanceof ApiError && error.status === 402) {
        // Declined: this card is spent for this checkout; another one is a new attempt.
        replaceCard();
        setCardError(error.message);
      } else if (error instanceof ApiError && error.status === 409) setFormError(BILLING_MESSAGES.createFailed);
      else if (error instanceof ApiError && error.status === 400 && Object.keys(error.fields).length > 0) {
        const mapped = serverFieldErrors(error.fields, sameAsBilling);
        form.setServerErrors(mapped.form);
        if (mapped.card) {
          if (phase === 'purchase') replaceCard();
          setCardError(mapped.card);
        }
        if (mapped.coupon) refuseCoupon(mapped.coupon);
        if (mapped.other) setFormError(mapped.other);
      } else setFormError(errorMessage(error));
      revealError();
    } finally {
      setPaying(false);
    }
  };

  /** Unticking "Same as billing" starts the shipping address from the billing one. */
  const toggleSame = (same: boolean) => {
    setSameAsBilling(same);
    if (same) return;
    for (const name of SHIPPING_FIELDS) {
      if (!form.values[`shipping.${name}`]) form.set(`shipping.${name}`, form.values[`billing.${name}`]);
    }
  };

  const addressField = (section: 'billing' | 'shipping') => (name: BillingField) => field(`${section}.${name}` as CheckoutKey);

  return (
    <form ref={formRef} className="checkout" aria-label="Checkout" noValidate onSubmit={(e) => void submit(e)}>
      <fieldset className="checkout-fieldset" disabled={readOnly}>
        <div className="checkout-layout">
          <div className="checkout-main">
            <section className="card checkout-section" aria-label="Billing details">
              <header className="checkout-section-head">
                <span className="step-number">1</span>
                <div>
                  <h2>Billing details</h2>
                  <p className="card-sub">They appear on your invoices.</p>
                </div>
              </header>
              <AddressFields section="billing" fields={BILLING_FIELDS} field={addressField('billing')} />
            </section>
            <section className="card checkout-section" aria-label="Shipping details">
              <header className="checkout-section-head">
                <span className="step-number">2</span>
                <div>
                  <h2>Shipping details</h2>
                  <p className="card-sub">Where we send your onboarding kit.</p>
                </div>
              </header>
              <label className="checkbox-line">
                <input type="checkbox" checked={sameAsBilling} onChange={(e) => toggleSame(e.target.checked)} />
                Same as billing
              </label>
              {!sameAsBilling && <AddressFields section="shipping" fields={SHIPPING_FIELDS} field={addressField('shipping')} />}
            </section>
            <section className="card checkout-section" aria-label="Payment">
              <header className="checkout-section-head">
                <span className="step-number">3</span>
                <div>
                  <h2>Payment</h2>
                  <p className="card-sub">Charged once today, then every {plan.termMonths} months until you cancel.</p>
                </div>
              </header>
              <CardField
                provider={payments.provider}
                publishableKey={payments.publishableKey}
                field={(key) => field(key)}
                tokenized={tokenized}
                onReplace={replaceCard}
                error={cardError}
                disabled={readOnly || paying}
                onStripeHandle={onStripeHandle}
              />
            </section>
          </div>
          <OrderSummary
            plan={plan}
            summary={summary}
            coupon={coupon}
            couponCode={couponCode}
            onCouponChange={onCouponChange}
            onChangePlan={onChangePlan}
            paying={paying}
            canPay={canPay}
            error={formError}
            readOnly={readOnly}
          />
        </div>
      </fieldset>
    </form>
  );
}
