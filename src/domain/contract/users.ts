import { array, boolean, literal, number, object, string, type, unknown, type Infer, type Struct } from 'superstruct';
import { coerce, defaulted, define, describedAs, nullable, optional, union } from './schema-notes.ts';
import { ROLES } from '../roles.ts';
import { EDITOR_PHONE_MAX, USER_MESSAGES, editorPhoneRule, pictureRule } from '../user-management.ts';
import { optionalLinkRule } from '../organization-rules.ts';
import { LIMITS, emailRule, settingsNameRule, settingsPhoneRule } from '../validation.ts';
import { defineOperation } from './define.ts';
import { EMAIL_SCHEMA, LINK_SCHEMA, fromText, ruleField, textSchema, wholeNumberSchema } from './fields.ts';
import type { JsonSchema } from './json-schema.ts';

/** A whole number read from a query string, with a default when absent. */
export function queryNumber(name: string, min: number, max: number): Struct<number, null> {
  const checked = define<number>(
    name,
    (v) => (Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max) || `${name} must be a whole number from ${min} to ${max}.`,
  );
  return fromText(describedAs(checked, wholeNumberSchema(min, max)), (v) => (/^\d+$/.test(v) ? Number(v) : v));
}

/** Like queryNumber, with a default when absent. */
export function pageNumber(name: string, min: number, max: number, fallback: number): Struct<number, null> {
  return defaulted(queryNumber(name, min, max), fallback);
}

/** `start` and `limit` of a list (ARCHITECTURE §3); `limit` is capped at `max` and defaults to `fallback`. */
export function pageQuery(max: number, fallback = max) {
  return { start: pageNumber('start', 0, 1_000_000, 0), limit: pageNumber('limit', 1, max, fallback) };
}

/** isEnabled as the specs send it: true/false or 1/0. */
const EnabledFlag = coerce(
  describedAs(
    define<boolean>('isEnabled', (v) => typeof v === 'boolean' || USER_MESSAGES.enabledInvalid),
    { type: 'boolean' },
  ),
  union([literal(0), literal(1)]),
  (v) => v === 1,
);

/** A text field that may be absent, null or empty; `rule` checks it when it has text, `schema` says what it takes then. */
export function optionalText(name: string, rule: (value: string) => string | undefined, schema: JsonSchema): Struct<string | null | undefined, null> {
  const check = define<string | null | undefined>(name, (value) => {
    if (value === undefined || value === null) return true;
    if (typeof value !== 'string') return 'Must be text.';
    return rule(value) ?? true;
  });
  return describedAs(check, schema, { optional: true, nullable: true });
}

const RoleStruct = object({
  name: describedAs(
    define<(typeof ROLES)[number]>('role', (v) => (ROLES as readonly unknown[]).includes(v)),
    { type: 'string', enum: [...ROLES] },
  ),
});

/** A user as both portals list it (C§3 settings user, A§3 editor/user). */
export const UserStruct = object({
  id: number(),
  email: string(),
  firstName: string(),
  lastName: string(),
  phone: nullable(string()),
  profilePictureUrl: nullable(string()),
  /** Editor drive link. */
  assetsPath: nullable(string()),
  /** A§3: 0 or 1. */
  isEnabled: union([literal(0), literal(1)]),
  /** False until an invited user has set a password. */
  hasPassword: boolean(),
  deletedAt: nullable(string()),
  role: RoleStruct,
  organizationId: nullable(number()),
  createdAt: string(),
});
export type User = Infer<typeof UserStruct>;
export const UserListStruct = array(UserStruct);

/** C§7 POST users / PATCH users/{id} from the customer portal: the settings-form rules of C§5. */
export const CustomerUserBodyStruct = object({
  email: ruleField('email', emailRule, EMAIL_SCHEMA),
  firstName: ruleField('firstName', settingsNameRule, textSchema(1, LIMITS.name)),
  lastName: ruleField('lastName', settingsNameRule, textSchema(1, LIMITS.name)),
  phone: ruleField('phone', settingsPhoneRule, { type: 'string' }),
  role: optional(string()),
  organizationId: optional(nullable(number())),
});
export type CustomerUserBody = Infer<typeof CustomerUserBodyStruct>;

/** A§7 POST users / PATCH users/{id} for staff users: the editor form of A§5. */
export const StaffUserBodyStruct = object({
  email: ruleField('email', emailRule, EMAIL_SCHEMA),
  firstName: ruleField('firstName', settingsNameRule, textSchema(1, LIMITS.name)),
  lastName: ruleField('lastName', settingsNameRule, textSchema(1, LIMITS.name)),
  phone: optional(optionalText('phone', editorPhoneRule, textSchema(undefined, EDITOR_PHONE_MAX))),
  profilePictureUrl: optional(optionalText('profilePictureUrl', pictureRule, LINK_SCHEMA)),
  role: optional(string()),
});
export type StaffUserBody = Infer<typeof StaffUserBodyStruct>;

export const SetEnabledBodyStruct = object({ isEnabled: EnabledFlag });

/** A§7 PATCH users/{id}/asset-path: the editor drive link; empty or null clears it. */
export const AssetPathBodyStruct = object({ path: optional(optionalText('path', optionalLinkRule, LINK_SCHEMA)) });

/** Only the role decides which payload struct applies; the rest is checked after. */
export const RoleOnlyStruct = type({ role: optional(unknown()) });

export const USER_LIST_ROLES = ['editor', 'admin', 'superadmin', 'staff'] as const;
export const UsersQueryStruct = type({
  role: defaulted(
    describedAs(
      define<(typeof USER_LIST_ROLES)[number]>(
        'role',
        (v) => (USER_LIST_ROLES as readonly unknown[]).includes(v) || `role must be one of ${USER_LIST_ROLES.join(', ')}.`,
      ),
      { type: 'string', enum: [...USER_LIST_ROLES] },
    ),
    'editor',
  ),
  // 50 a page on the editors page (A§9); an assignment dropdown may ask for all at once.
  ...pageQuery(500, 50),
});

/** A§3 trial user: an owner whose organization has no subscription yet. */
export const TrialUserStruct = object({
  id: number(),
  organizationId: number(),
  organizationName: string(),
  email: string(),
  firstName: string(),
  lastName: string(),
  /** When the trial ends (ISO date). */
  codeExpiration: string(),
  /** Their own registration link: sign-in with their e-mail, then the plans (src/domain/user-management.ts). */
  link: string(),
});
export type TrialUser = Infer<typeof TrialUserStruct>;
export const TrialUserListStruct = array(TrialUserStruct);

export const TRIAL_USERS_LIMIT = 20;
export const TrialUsersQueryStruct = type(pageQuery(TRIAL_USERS_LIMIT));
export const OrganizationUsersQueryStruct = type(pageQuery(100));

/**
 * POST users and PATCH users/{id} take one of the bodies above, and the role (for PATCH also
 * `isEnabled`) decides which: the route parses the body itself, so its 400 names the fields of the
 * one that applies. These only type what a client sends; every body passes them.
 */
const NewUserBodyStruct = describedAs(
  define<CustomerUserBody | StaffUserBody>('body', () => true),
  {},
  { optional: true, nullable: true },
);
const UserChangeBodyStruct = describedAs(
  define<Infer<typeof SetEnabledBodyStruct> | CustomerUserBody | StaffUserBody>('body', () => true),
  {},
  { optional: true, nullable: true },
);

/** A§7 users by role: the editors page (role=editor) and staff settings (role=staff); an EDITOR reads editors only. */
export const listUsers = defineOperation({ method: 'GET', path: '/users', access: 'staff', query: UsersQueryStruct, answer: UserListStruct });
/** A§2 trial users: owners whose organization has no subscription yet. */
export const listTrialUsers = defineOperation({
  method: 'GET',
  path: '/users/trial',
  access: 'managers',
  query: TrialUsersQueryStruct,
  answer: TrialUserListStruct,
});
/** C§7 settings users and A§2 organization page users (deleted users never). */
export const listOrganizationUsers = defineOperation({
  method: 'GET',
  path: '/organizations/{id}/users',
  access: 'signed-in',
  organizationParam: 'id',
  query: OrganizationUsersQueryStruct,
  answer: UserListStruct,
});
/** C§7: the owner adds a User; A§7: staff add an Editor (a superadmin also an Admin). Who may add whom, the route decides from the caller. */
export const createUser = defineOperation({ method: 'POST', path: '/users', access: 'signed-in', body: NewUserBodyStruct, answer: UserStruct, status: 201 });
/** Enable or disable (`{ isEnabled }`), or edit the details; who may, the route decides from the caller and the user. */
export const updateUser = defineOperation({ method: 'PATCH', path: '/users/{id}', access: 'signed-in', body: UserChangeBodyStruct, answer: UserStruct });
/** Soft delete: the row stays for history, the user leaves every list and lookup. */
export const deleteUser = defineOperation({ method: 'DELETE', path: '/users/{id}', access: 'signed-in' });
export const deleteEditor = defineOperation({ method: 'DELETE', path: '/users/{id}/editor', access: 'managers' });
/** A new single-use invitation link; the previous unused one stops working. */
export const resendInvite = defineOperation({ method: 'PATCH', path: '/users/{id}/invite-link', access: 'signed-in' });
/** A§7 the editor drive link (empty or null clears it). */
export const setEditorAssetPath = defineOperation({
  method: 'PATCH',
  path: '/users/{id}/asset-path',
  access: 'managers',
  body: AssetPathBodyStruct,
  answer: UserStruct,
});
