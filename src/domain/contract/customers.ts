import { array, assign, boolean, enums, number, object, string, type, type Infer, type Struct } from 'superstruct';
import { define, describedAs, nullable, optional, union } from './schema-notes.ts';
import {
  CREDITS_MAX,
  INTERVAL_MAX_MONTHS,
  ORGANIZATION_MESSAGES,
  REVIEW_PERIOD_MAX_DAYS,
  STORAGE_MAX_TB,
  optionalLinkRule,
  parseReviewPeriod,
  reviewPeriodRule,
  trackingCodeRule,
} from '../organization-rules.ts';
import { isIsoDate } from '../subscription.ts';
import { LIMITS } from '../validation.ts';
import { defineOperation } from './define.ts';
import { LINK_SCHEMA, fromText, textSchema, wholeNumberSchema } from './fields.ts';
import { OrganizationStruct } from './organizations.ts';
import { optionalText, pageQuery, queryNumber } from './users.ts';

/** The organization's owner as staff lists show it (A§3). */
export const OwnerStruct = object({ id: number(), firstName: string(), lastName: string(), email: string(), phone: nullable(string()) });

const SUBSCRIPTION = enums(['inactive', 'canceled', 'active']);

/** Fields staff see on every organization, in lists and on the organization page (A§3). */
const StaffFields = {
  owner: nullable(OwnerStruct),
  statusId: number(),
  state: string(),
  assetsLink: nullable(string()),
  trackingCode: nullable(string()),
  renewableAt: nullable(string()),
  isCancelled: boolean(),
  subscriptionStatus: SUBSCRIPTION,
  createdAt: string(),
  projectReviewPeriod: number(),
  activeCredits: number(),
  usedCredits: number(),
  creditsPerInterval: number(),
  interval: number(),
  startDate: nullable(string()),
  endDate: nullable(string()),
  renewDate: nullable(string()),
  kitOrdered: boolean(),
  kitType: nullable(string()),
  /** Kit order date, YYYY-MM-DD. */
  kitOrderedAt: nullable(string()),
  /** The plan of the running subscription (active, past due, or cancelled before its end); null without one. */
  planName: nullable(string()),
};

/** A row of the customers and onboarding lists (GET organizations). */
export const OrganizationRowStruct = object({
  id: number(),
  name: string(),
  /** Quota in TB. */
  storage: number(),
  /** Bytes in use. */
  usedSpace: number(),
  ...StaffFields,
});
export type OrganizationRow = Infer<typeof OrganizationRowStruct>;
export const OrganizationRowListStruct = array(OrganizationRowStruct);

/** GET organizations/{id} as staff see it: the customer answer plus A§3's organization fields. */
export const StaffOrganizationStruct = assign(
  OrganizationStruct,
  object({
    ...StaffFields,
    activeProjects: number(),
    completedProjects: number(),
    assetsCount: number(),
    usersCount: number(),
  }),
);
export type StaffOrganization = Infer<typeof StaffOrganizationStruct>;

/** Longest customers search text (`q`): longer than any name or e-mail the rows hold. */
export const ORGANIZATION_SEARCH_MAX = 200;
export const ORGANIZATION_SORTS = ['name', 'organization', 'expiry', 'email', 'phone', 'createdAt'] as const;
export type OrganizationSort = (typeof ORGANIZATION_SORTS)[number];
export const ORGANIZATIONS_PAGE_SIZE = 50;

export const OrganizationListQueryStruct = type({
  ...pageQuery(100),
  sort: optional(enums(ORGANIZATION_SORTS)),
  order: optional(enums(['asc', 'desc'])),
  /** Onboarding tabs: 1 in progress, 2 completed. */
  statusId: optional(queryNumber('statusId', 1, 2)),
  /** The customers search (issue 36): rows whose organization, owner name or owner e-mail contains it, ignoring case and accents; blank lists all. */
  q: optional(
    describedAs(
      define<string>(
        'q',
        (v) => (typeof v === 'string' && v.length <= ORGANIZATION_SEARCH_MAX) || `q must be text of at most ${ORGANIZATION_SEARCH_MAX} characters.`,
      ),
      textSchema(undefined, ORGANIZATION_SEARCH_MAX),
    ),
  ),
});
export type OrganizationListQuery = Infer<typeof OrganizationListQueryStruct>;

function reviewPeriodCheck(v: unknown): true | string {
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v) || v < 0) return ORGANIZATION_MESSAGES.reviewPeriodDigits;
    return v <= REVIEW_PERIOD_MAX_DAYS || ORGANIZATION_MESSAGES.reviewPeriodTooLong;
  }
  return typeof v === 'string' ? (reviewPeriodRule(v) ?? ORGANIZATION_MESSAGES.reviewPeriodDigits) : ORGANIZATION_MESSAGES.reviewPeriodDigits;
}

/** Days as a number, or as the digits typed (blank counts as 0). */
const reviewPeriod = fromText(describedAs(define<number>('projectReviewPeriod', reviewPeriodCheck), wholeNumberSchema(0, REVIEW_PERIOD_MAX_DAYS)), (v) =>
  reviewPeriodRule(v) ? v : parseReviewPeriod(v),
);

/** A§7 PATCH organizations/{id}: exactly one of these (the route checks "exactly one"). */
export const UpdateOrganizationBodyStruct = object({
  state: optional(
    describedAs(
      define<'APPROVED'>('state', (v) => v === 'APPROVED' || ORGANIZATION_MESSAGES.stateInvalid),
      { type: 'string', enum: ['APPROVED'] },
    ),
  ),
  assetsLink: optional(optionalText('assetsLink', optionalLinkRule, LINK_SCHEMA)),
  trackingCode: optional(optionalText('trackingCode', trackingCodeRule, textSchema(undefined, LIMITS.trackingId))),
  projectReviewPeriod: optional(reviewPeriod),
});
export type UpdateOrganizationBody = Infer<typeof UpdateOrganizationBodyStruct>;

/** The answer of PATCH organizations/{id}: the editable fields as saved. */
export const OrganizationFieldsStruct = object({
  id: number(),
  statusId: number(),
  state: string(),
  assetsLink: nullable(string()),
  trackingCode: nullable(string()),
  projectReviewPeriod: number(),
});
export type OrganizationFields = Infer<typeof OrganizationFieldsStruct>;

const isoDate = (name: string) =>
  describedAs(
    define<string>(name, (v) => (typeof v === 'string' && isIsoDate(v)) || ORGANIZATION_MESSAGES.dateInvalid),
    { type: 'string', format: 'date' },
  );

function wholeNumber(name: string, max: number): Struct<number, null> {
  const message = ORGANIZATION_MESSAGES.wholeNumber(max);
  return fromText(
    describedAs(
      define<number>(name, (v) => (Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= max) || message),
      wholeNumberSchema(0, max),
    ),
    (v) => (/^\d+$/.test(v.trim()) ? Number(v.trim()) : v),
  );
}

const storageTb = fromText(
  describedAs(
    define<number>('storage', (v) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= STORAGE_MAX_TB) || ORGANIZATION_MESSAGES.storageInvalid),
    { type: 'number', minimum: 0, maximum: STORAGE_MAX_TB },
  ),
  (v) => (/^\d+(\.\d+)?$/.test(v.trim()) ? Number(v.trim()) : v),
);

/** A§7 PUT organizations/{id}/credits. */
export const UpdateCreditsBodyStruct = object({
  startDate: isoDate('startDate'),
  endDate: isoDate('endDate'),
  renewable: describedAs(
    define<boolean>('renewable', (v) => typeof v === 'boolean' || ORGANIZATION_MESSAGES.renewableInvalid),
    { type: 'boolean' },
  ),
  credits: wholeNumber('credits', CREDITS_MAX),
  interval: wholeNumber('interval', INTERVAL_MAX_MONTHS),
  creditsPerInterval: wholeNumber('creditsPerInterval', CREDITS_MAX),
  storage: storageTb,
});
export type UpdateCreditsBody = Infer<typeof UpdateCreditsBodyStruct>;

/** A§3 credits, as GET and PUT organizations/{id}/credits answer them inside `data.credits`. */
export const CreditDetailStruct = object({
  id: number(),
  startDate: nullable(string()),
  endDate: nullable(string()),
  renewDate: nullable(string()),
  renewable: boolean(),
  interval: number(),
  creditsPerInterval: number(),
  activeCredits: number(),
  usedCredits: number(),
  /** TB. */
  storage: number(),
  status: enums(['ACTIVE', 'INACTIVE']),
});
export type CreditDetail = Infer<typeof CreditDetailStruct>;
export const CreditsAnswerStruct = object({ data: object({ credits: CreditDetailStruct }) });

/** A§7 customers list and onboarding tabs: a page of rows, sorted, searched and filtered by the server. */
export const listOrganizations = defineOperation({
  method: 'GET',
  path: '/organizations',
  access: 'managers',
  query: OrganizationListQueryStruct,
  answer: OrganizationRowListStruct,
});
/** A member reads the customer answer, staff the staff one: the caller checks the one it expects. */
export const getOrganization = defineOperation({
  method: 'GET',
  path: '/organizations/{id}',
  access: 'signed-in',
  organizationParam: 'id',
  answer: union([OrganizationStruct, StaffOrganizationStruct]),
});
export const updateOrganization = defineOperation({
  method: 'PATCH',
  path: '/organizations/{id}',
  access: 'managers',
  body: UpdateOrganizationBodyStruct,
  answer: OrganizationFieldsStruct,
});
export const deleteOrganization = defineOperation({ method: 'DELETE', path: '/organizations/{id}', access: 'managers' });
export const getCredits = defineOperation({
  method: 'GET',
  path: '/organizations/{id}/credits',
  access: 'signed-in',
  organizationParam: 'id',
  answer: CreditsAnswerStruct,
});
export const updateCredits = defineOperation({
  method: 'PUT',
  path: '/organizations/{id}/credits',
  access: 'managers',
  body: UpdateCreditsBodyStruct,
  answer: CreditsAnswerStruct,
});

/** A§7 GET organizations/{id}/admin/login. */
export const AdminLoginStruct = object({ token: string(), organizationId: number() });

/** A§2 Log In As: a token for the organization's owner that names the admin as impersonator (recorded on the trail, issue 36). */
export const adminLogin = defineOperation({ method: 'GET', path: '/organizations/{id}/admin/login', access: 'managers', answer: AdminLoginStruct });
