import { useEffect, useRef, useState } from 'react';
import type { PaymentMethodView } from '@/domain/contract/billing.ts';

/** What the checkout asks of the Stripe card: a `pm_…` for the card typed into Stripe's frame. */
export interface StripeCardHandle {
  tokenize: (name: string) => Promise<PaymentMethodView>;
}

/** A refusal from Stripe.js (incomplete number, bad date…): its message goes under the card. */
export class CardTokenError extends Error {}

const LOAD_TIMEOUT_MS = 15_000;
const STRIPE_UNAVAILABLE =
  'The secure card form could not be loaded. Check your connection (or any blocker of js.stripe.com) and reload the page; nothing was charged.';

/**
 * Stripe mode's card (client-config `payments.provider === 'stripe'`): Stripe.js is imported
 * only here, so the embedded mode never loads it; the number, date and CVC stay inside Stripe's
 * frame and only the payment method's id comes back. When Stripe.js cannot load, says so.
 */
export function StripeCard({
  publishableKey,
  disabled,
  onHandle,
}: {
  publishableKey: string;
  disabled: boolean;
  onHandle: (handle: StripeCardHandle | null) => void;
}) {
  const mount = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    let destroy: (() => void) | null = null;
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('Stripe.js timed out')), LOAD_TIMEOUT_MS));
    void (async () => {
      try {
        const { loadStripe } = await import('@stripe/stripe-js');
        const stripe = await Promise.race([loadStripe(publishableKey), timeout]);
        if (!stripe) throw new Error('Stripe.js is not available');
        if (cancelled || !mount.current) return;
        const card = stripe.elements().create('card', {
          hidePostalCode: true,
          style: {
            base: { fontSize: '15px', color: '#23272b', fontFamily: 'Inter, "Segoe UI", Roboto, Arial, sans-serif', '::placeholder': { color: '#a3abb2' } },
            invalid: { color: '#b71c1c' },
          },
        });
        card.mount(mount.current);
        card.on('change', (event) => setError(event.error?.message ?? null));
        destroy = () => card.destroy();
        onHandle({
          tokenize: async (name) => {
            const result = await stripe.createPaymentMethod({ type: 'card', card, billing_details: { name } });
            if (result.error) throw new CardTokenError(result.error.message ?? 'Your card could not be checked.');
            const pm = result.paymentMethod;
            return {
              paymentMethodId: pm.id,
              brand: pm.card?.brand ?? 'unknown',
              last4: pm.card?.last4 ?? '',
              expMonth: pm.card?.exp_month ?? 0,
              expYear: pm.card?.exp_year ?? 0,
            };
          },
        });
        setState('ready');
      } catch {
        if (!cancelled) setState('failed');
      }
    })();
    return () => {
      cancelled = true;
      destroy?.();
      onHandle(null);
    };
  }, [publishableKey, onHandle]);

  return (
    <div className={`field ${error ? 'has-error' : ''}`}>
      <span className="field-label">Card</span>
      <div ref={mount} className={`stripe-card ${disabled ? 'is-disabled' : ''}`} hidden={state === 'failed'} aria-busy={state === 'loading'} />
      {state === 'loading' && <p className="field-hint">Loading the secure card form…</p>}
      {state === 'failed' && (
        <p className="form-error" role="alert">
          {STRIPE_UNAVAILABLE}
        </p>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
