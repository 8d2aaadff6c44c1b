import * as operations from '@/domain/contract/billing.ts';
import { call } from '@/lib/api-client.ts';

export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  name: string;
}

/** POST payment-methods: the embedded gateway tokenizes the card (with Stripe, Stripe.js does). */
export function addCard(card: CardInput) {
  return call(operations.addCard, { body: card });
}
