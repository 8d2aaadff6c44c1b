import type { ColumnType, Generated, Selectable } from 'kysely';
import type { BillingState } from '../../src/domain/billing.ts';

/** Kysely types of migration 0009 (issue 11), part of server/db/schema.ts's Database. */
type CreatedAt = ColumnType<Date, Date | undefined, never>;
/** jsonb: read as an object, written as JSON text. */
type Json<T> = ColumnType<T, string, string>;

export interface PaymentPlansTable {
  id: Generated<number>;
  name: string;
  monthlyCredits: number;
  storageTb: number;
  /** Cents. */
  pricePerMonth: number;
  pricePerYear: number;
  currency: Generated<string>;
  termMonths: Generated<number>;
  kitType: string | null;
  sortOrder: Generated<number>;
  retired: Generated<boolean>;
  createdAt: CreatedAt;
}

export interface CouponsTable {
  id: Generated<number>;
  code: string;
  percentOff: number | null;
  amountOff: number | null;
  /** YYYY-MM-DD, inclusive. */
  validUntil: string | null;
  maxRedemptions: number | null;
  timesRedeemed: Generated<number>;
  retired: Generated<boolean>;
  createdAt: CreatedAt;
}

export interface CouponRedemptionsTable {
  id: Generated<number>;
  couponId: number;
  organizationId: number;
  subscriptionId: number | null;
  createdAt: CreatedAt;
}

export interface BillingCustomersTable {
  organizationId: number;
  provider: string;
  providerCustomerId: string;
  createdAt: CreatedAt;
}

export interface PaymentMethodsTable {
  id: Generated<number>;
  provider: string;
  providerPaymentMethodId: string;
  organizationId: number;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  createdAt: CreatedAt;
}

export interface SubscriptionsTable {
  id: Generated<number>;
  organizationId: number;
  planId: number;
  status: Generated<BillingState>;
  startDate: string;
  renewableAt: string;
  isCancelled: Generated<boolean>;
  cancelledAt: Date | null;
  provider: string;
  providerCustomerId: string | null;
  providerSubscriptionId: string | null;
  paymentMethodId: string;
  couponId: number | null;
  amount: number;
  currency: string;
  billing: Json<Record<string, string>>;
  shipping: Json<Record<string, string>>;
  idempotencyKey: string;
  failureMessage: string | null;
  renewalFailures: Generated<number>;
  createdAt: CreatedAt;
  updatedAt: Generated<Date>;
}

export interface InvoicesTable {
  id: Generated<number>;
  number: string;
  subscriptionId: number;
  organizationId: number;
  amount: number;
  currency: string;
  status: 'paid' | 'failed' | 'refunded';
  periodStart: string;
  periodEnd: string;
  providerPaymentId: string | null;
  paidAt: Date | null;
  createdAt: CreatedAt;
  /** Migration 0010: when its e-mail (receipt, or failed-renewal notice) was handed to the mailer. */
  mailSentAt: Generated<Date | null>;
  /** Migration 0010: an instance is sending its e-mail since then (a stale claim is taken again). */
  mailClaimedAt: Generated<Date | null>;
}

export interface BillingEventsTable {
  providerEventId: string;
  type: string;
  receivedAt: CreatedAt;
}

export interface GatewayCardsTable {
  id: string;
  customerId: string | null;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  outcome: 'succeeds' | 'card_declined' | 'insufficient_funds';
  createdAt: CreatedAt;
}

export interface GatewayChargesTable {
  id: string;
  idempotencyKey: string;
  customerId: string;
  paymentMethodId: string;
  amount: number;
  currency: string;
  status: 'succeeded' | 'failed' | 'canceled';
  failureCode: string | null;
  failureMessage: string | null;
  amountRefunded: Generated<number>;
  createdAt: CreatedAt;
}

/** The billing tables, as they join server/db/schema.ts's Database. */
export interface BillingTables {
  paymentPlans: PaymentPlansTable;
  coupons: CouponsTable;
  couponRedemptions: CouponRedemptionsTable;
  billingCustomers: BillingCustomersTable;
  paymentMethods: PaymentMethodsTable;
  subscriptions: SubscriptionsTable;
  invoices: InvoicesTable;
  billingEvents: BillingEventsTable;
  gatewayCards: GatewayCardsTable;
  gatewayCharges: GatewayChargesTable;
}

export type PaymentPlanRow = Selectable<PaymentPlansTable>;
export type CouponRow = Selectable<CouponsTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
