import { array, assign, boolean, enums, literal, number, object, string, type, unknown, type Infer } from 'superstruct';
import { coerce, define, describedAs, nullable, optional, record, union } from './schema-notes.ts';
import {
  BILLING_FIELDS,
  BILLING_LIMITS,
  BILLING_MESSAGES,
  BILLING_RULES,
  CATALOG_MESSAGES,
  SHIPPING_FIELDS,
  isKnownCurrency,
  type BillingField,
} from '../billing.ts';
import { defineOperation } from './define.ts';
import { EMAIL_SCHEMA, Id, ruleField, textSchema, wholeNumberSchema } from './fields.ts';
import type { JsonSchema } from './json-schema.ts';

/** Request bodies of the billing calls (docs/api.md "Subscriptions and billing"). */

/** What each field's rule takes (the phones' digits and the country's code are not in the document). */
function billingSchema(field: BillingField): JsonSchema {
  if (field === 'email') return EMAIL_SCHEMA;
  if (field === 'phone' || field === 'phone2' || field === 'country') return { type: 'string' };
  return textSchema(1, BILLING_LIMITS[field]);
}

function detailsStruct<F extends BillingField>(fields: readonly F[]) {
  return type(
    Object.fromEntries(fields.map((field) => [field, ruleField(field, BILLING_RULES[field], billingSchema(field))])) as Record<F, ReturnType<typeof ruleField>>,
  );
}

export const BillingDetailsStruct = detailsStruct(BILLING_FIELDS);
export const ShippingDetailsStruct = detailsStruct(SHIPPING_FIELDS);

/**
 * C§3's subscription payload. `renewableAt` is accepted and ignored (the server sets the term);
 * "card info" is the card's `paymentMethodId`, plus at most display data: a raw card number in
 * this payload is refused, so it can never be stored with the billing details.
 */
/** A card the browser's gateway tokenized (never card data), and a retry's key: the document gives both patterns. */
const PAYMENT_METHOD_ID = /^pm_[A-Za-z0-9_]{1,200}$/;
const IDEMPOTENCY_KEY = /^[\w-]{8,100}$/;

export const CreateSubscriptionBodyStruct = type({
  paymentPlanId: Id,
  paymentMethodId: describedAs(
    define<string>('paymentMethodId', (value) => (typeof value === 'string' && PAYMENT_METHOD_ID.test(value)) || BILLING_MESSAGES.paymentMethodRequired),
    { type: 'string', pattern: PAYMENT_METHOD_ID.source },
  ),
  coupon: optional(nullable(string())),
  renewableAt: optional(nullable(union([string(), number()]))),
  billing: BillingDetailsStruct,
  shipping: ShippingDetailsStruct,
  card: optional(
    nullable(
      describedAs(
        define<unknown>(
          'card',
          (value) => !(typeof value === 'object' && value !== null && ('number' in value || 'cvc' in value)) || BILLING_MESSAGES.rawCardRefused,
        ),
        {},
        { optional: true, nullable: true },
      ),
    ),
  ),
  idempotencyKey: optional(
    describedAs(
      define<string>('idempotencyKey', (value) => (typeof value === 'string' && IDEMPOTENCY_KEY.test(value)) || 'Must be 8 to 100 letters, digits, - or _.'),
      { ...textSchema(8, 100), pattern: IDEMPOTENCY_KEY.source },
    ),
  ),
});
export type CreateSubscriptionBody = Infer<typeof CreateSubscriptionBodyStruct>;

// ---- Answers (docs/api.md "Subscriptions and billing") ------------------------------------

const Cents = number();
const IsoDate = string();

export const PaymentPlanStruct = object({
  id: number(),
  name: string(),
  monthlyCredits: number(),
  /** TB. */
  storage: number(),
  pricePerMonth: Cents,
  pricePerYear: Cents,
  currency: string(),
  termMonths: number(),
  kitType: nullable(string()),
});
export type PaymentPlanView = Infer<typeof PaymentPlanStruct>;
export const PaymentPlanListStruct = array(PaymentPlanStruct);

export const CouponCheckStruct = object({ code: string(), percentOff: nullable(number()), amountOff: nullable(Cents), validUntil: nullable(IsoDate) });
export type CouponCheck = Infer<typeof CouponCheckStruct>;

export const CardStruct = object({ brand: string(), last4: string(), expMonth: number(), expYear: number() });
export type CardView = Infer<typeof CardStruct>;

/** The embedded gateway's card form: the number and CVC go in, only display data comes out. */
export const AddCardBodyStruct = type({
  number: string(),
  expMonth: union([number(), string()]),
  expYear: union([number(), string()]),
  cvc: string(),
  name: optional(string()),
});
export const PaymentMethodStruct = assign(object({ paymentMethodId: string() }), CardStruct);
export type PaymentMethodView = Infer<typeof PaymentMethodStruct>;

export const InvoiceStruct = object({
  number: string(),
  amount: Cents,
  currency: string(),
  status: enums(['paid', 'failed', 'refunded']),
  periodStart: IsoDate,
  periodEnd: IsoDate,
  paidAt: nullable(string()),
});
export type InvoiceView = Infer<typeof InvoiceStruct>;

export const SubscriptionStruct = object({
  id: number(),
  /** A§4's rule, as staff and the owner see it. */
  status: enums(['active', 'canceled', 'inactive']),
  /** Where the renewals stand: past_due while a failed yearly charge is being retried. */
  state: enums(['pending', 'active', 'past_due', 'ended', 'failed']),
  plan: object({ id: number(), name: string() }),
  startDate: IsoDate,
  renewableAt: IsoDate,
  isCancelled: boolean(),
  amount: Cents,
  currency: string(),
  card: nullable(CardStruct),
  invoices: array(InvoiceStruct),
  /** The owner's and staff's only. */
  billing: optional(record(string(), string())),
  shipping: optional(record(string(), string())),
});
export type SubscriptionView = Infer<typeof SubscriptionStruct>;
export const SubscriptionListStruct = array(SubscriptionStruct);

// ---- Staff: plans and coupons (A§ "Plans & coupons" tab, SUPERADMIN and ADMIN) -------------

const wholeNumber = (name: string, min: number, max: number) =>
  describedAs(
    define<number>(
      name,
      (value) => (Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max) || `Must be a whole number from ${min} to ${max}.`,
    ),
    wholeNumberSchema(min, max),
  );

/** Create or edit a plan. A price change applies to purchases and yearly renewals from then on. */
export const PlanBodyStruct = object({
  name: describedAs(
    define<string>(
      'name',
      (value) => (typeof value === 'string' && value.trim().length > 0 && value.length <= 60) || 'Name is required (at most 60 characters).',
    ),
    textSchema(1, 60),
  ),
  monthlyCredits: wholeNumber('monthlyCredits', 1, 1000),
  storage: describedAs(
    define<number>(
      'storage',
      (value) => (typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= 1000) || 'Must be more than 0 and at most 1000 TB.',
    ),
    { type: 'number', exclusiveMinimum: 0, maximum: 1000 },
  ),
  pricePerMonth: wholeNumber('pricePerMonth', 0, 100_000_000),
  pricePerYear: wholeNumber('pricePerYear', 0, 1_200_000_000),
  // A known ISO 4217 code in lowercase: which ones, the runtime knows (the document says nothing).
  currency: describedAs(
    define<string>(
      'currency',
      (value) => (typeof value === 'string' && /^[a-z]{3}$/.test(value) && isKnownCurrency(value)) || CATALOG_MESSAGES.currencyUnknown,
    ),
    {},
  ),
  termMonths: wholeNumber('termMonths', 1, 36),
  kitType: nullable(
    describedAs(
      define<string>('kitType', (value) => (typeof value === 'string' && value.length <= 60) || 'At most 60 characters.'),
      textSchema(undefined, 60),
    ),
  ),
  retired: optional(boolean()),
});
export type PlanBody = Infer<typeof PlanBodyStruct>;
export const StaffPlanStruct = assign(PaymentPlanStruct, object({ retired: boolean(), subscriptions: number() }));
export type StaffPlan = Infer<typeof StaffPlanStruct>;
export const StaffPlanListStruct = array(StaffPlanStruct);

/** Create a coupon (exactly one of percentOff and amountOff), or edit one (its code stays). */
export const CouponBodyStruct = object({
  code: optional(
    describedAs(
      define<string>(
        'code',
        (value) => (typeof value === 'string' && /^[A-Za-z0-9_-]{1,50}$/.test(value.trim())) || 'Letters, digits, - and _ only, up to 50.',
      ),
      textSchema(1, 50),
    ),
  ),
  percentOff: nullable(wholeNumber('percentOff', 1, 100)),
  amountOff: nullable(wholeNumber('amountOff', 1, 1_200_000_000)),
  validUntil: nullable(
    describedAs(
      define<string>('validUntil', (value) => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) || 'Must be a date (YYYY-MM-DD).'),
      { type: 'string', format: 'date' },
    ),
  ),
  maxRedemptions: nullable(wholeNumber('maxRedemptions', 1, 1_000_000)),
  retired: optional(boolean()),
});
export type CouponBody = Infer<typeof CouponBodyStruct>;
export const StaffCouponStruct = object({
  code: string(),
  percentOff: nullable(number()),
  amountOff: nullable(Cents),
  validUntil: nullable(IsoDate),
  maxRedemptions: nullable(number()),
  timesRedeemed: number(),
  retired: boolean(),
});
export type StaffCoupon = Infer<typeof StaffCouponStruct>;
export const StaffCouponListStruct = array(StaffCouponStruct);

// ---- Operations ----------------------------------------------------------------------------

/**
 * A body the route hands on as sent, for its service to check: the card form reports every
 * field's problem at once, and a coupon's rules depend on the stored coupon (a code is required
 * only to create one, a maximum may not go below its redemptions). It only types what the client sends.
 */
const checkedByService = <T>(name: string) =>
  describedAs(
    define<T>(name, () => true),
    {},
    { optional: true, nullable: true },
  );

/** Public (C§7: payment-plans is one of the calls without a token); retired plans are not sold. */
export const listPlans = defineOperation({ method: 'GET', path: '/payment-plans', access: 'public', answer: PaymentPlanListStruct });
/** The discount when the caller's organization may use the code; 404 with fields.coupon otherwise. */
export const checkCoupon = defineOperation({ method: 'GET', path: '/payment-plans/coupons/{code}', access: 'customer', answer: CouponCheckStruct });
/** The embedded gateway's card form; with Stripe, Stripe.js tokenizes and this call does not exist. */
export const addCard = defineOperation({
  method: 'POST',
  path: '/payment-methods',
  access: 'owner',
  body: checkedByService<Infer<typeof AddCardBodyStruct>>('card'),
  answer: PaymentMethodStruct,
  status: 201,
});
export const listSubscriptions = defineOperation({
  method: 'GET',
  path: '/organizations/{id}/subscriptions',
  access: 'signed-in',
  organizationParam: 'id',
  answer: SubscriptionListStruct,
});
/** 201, or 200 when an idempotency key replays an earlier purchase. */
export const createSubscription = defineOperation({
  method: 'POST',
  path: '/organizations/{id}/subscriptions',
  access: 'owner',
  organizationParam: 'id',
  // Missing blocks are checked as empty ones, so every field gets its own message.
  body: coerce(CreateSubscriptionBodyStruct, unknown(), (value) => {
    const body = (value ?? {}) as Record<string, unknown>;
    return { ...body, billing: body.billing ?? {}, shipping: body.shipping ?? {} };
  }),
  answer: SubscriptionStruct,
  status: 201,
});
export const cancelSubscription = defineOperation({ method: 'DELETE', path: '/organizations/{id}/subscriptions', access: 'owner', organizationParam: 'id' });
/** Stripe's webhook: public, the signature over the raw body is the authentication. */
export const stripeWebhook = defineOperation({
  method: 'POST',
  path: '/billing/stripe-webhook',
  access: 'public',
  answer: object({ received: literal(true) }),
});

/** Staff's plans and coupons: SUPERADMIN and ADMIN, not through an impersonation. */
export const listStaffPlans = defineOperation({ method: 'GET', path: '/admin/payment-plans', access: 'managers', answer: StaffPlanListStruct });
export const createPlan = defineOperation({
  method: 'POST',
  path: '/admin/payment-plans',
  access: 'managers',
  body: PlanBodyStruct,
  answer: StaffPlanStruct,
  status: 201,
});
export const updatePlan = defineOperation({
  method: 'PUT',
  path: '/admin/payment-plans/{id}',
  access: 'managers',
  body: PlanBodyStruct,
  answer: StaffPlanStruct,
});
export const listCoupons = defineOperation({ method: 'GET', path: '/admin/coupons', access: 'managers', answer: StaffCouponListStruct });
export const createCoupon = defineOperation({
  method: 'POST',
  path: '/admin/coupons',
  access: 'managers',
  body: checkedByService<CouponBody>('coupon'),
  answer: StaffCouponStruct,
  status: 201,
});
export const updateCoupon = defineOperation({
  method: 'PUT',
  path: '/admin/coupons/{code}',
  access: 'managers',
  body: checkedByService<CouponBody>('coupon'),
  answer: StaffCouponStruct,
});
