import { useEffect, useState } from 'react';
import { BILLING_MESSAGES, isCouponCodeShape } from '@/domain/billing.ts';
import { ApiError, errorMessage } from '@/lib/api-client.ts';
import { useQuery } from '@/lib/query.ts';
import { checkCoupon } from '@/shared/billing/api/check-coupon.ts';
import { settingsKeys } from '../api/keys.ts';
import type { CouponState } from './order-summary.tsx';

const COUPON_DEBOUNCE_MS = 400;

/**
 * The coupon as it is typed, checked once typing pauses. The answer is keyed by the code, so an
 * answer for a code typed before never shows for the one typed now. `refuse` puts the server's
 * refusal at purchase on the field until the code is edited.
 */
export function useCouponCheck(organizationId: number) {
  const [couponCode, setCouponCode] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const code = couponCode.trim();
  const shaped = code !== '' && isCouponCodeShape(code);
  const [settled, setSettled] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSettled(code), COUPON_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [code]);
  const query = useQuery({ queryKey: settingsKeys.coupon(organizationId, code), queryFn: () => checkCoupon(code), enabled: shaped && settled === code });

  let coupon: CouponState;
  if (!code) coupon = { state: 'empty' };
  else if (!shaped) coupon = { state: 'invalid', message: BILLING_MESSAGES.couponInvalid };
  else if (refusal !== null) coupon = { state: 'invalid', message: refusal };
  else if (settled !== code || query.isPending) coupon = { state: 'checking' };
  else if (query.error) {
    const { error } = query;
    coupon = {
      state: 'invalid',
      message: error instanceof ApiError && error.status === 404 ? (error.fields.coupon ?? BILLING_MESSAGES.couponInvalid) : errorMessage(error),
    };
  } else coupon = { state: 'valid', coupon: query.data! };

  const change = (next: string) => {
    setCouponCode(next);
    setRefusal(null);
  };
  return { couponCode, coupon, change, refuse: setRefusal };
}
