import { CreateShareLinkBodyStruct, GuestCommentBodyStruct, GuestReviewStruct, GuestStreamQueryStruct, ShareAccessBodyStruct, ShareLinkListStruct, ShareLinkStruct, SharePassStruct } from './share-links.ts';
import { boolean, enums, literal, object, string } from 'superstruct';
import { FINAL_VIDEO_LENGTHS } from '../constants.ts';
import { PROJECT_STATUSES } from '../project-status.ts';
import { ROLES } from '../roles.ts';
import { ASSET_TYPES, UPLOAD_TYPES } from '../uploads.ts';
import { ClientConfigStruct, LoginBodyStruct, RecoverBodyStruct, RecoverCompleteBodyStruct, RegisterBodyStruct, ScoreStruct, SessionStruct, TokenStruct } from './auth.ts';
import {
  AddCardBodyStruct,
  CouponBodyStruct,
  CouponCheckStruct,
  CreateSubscriptionBodyStruct,
  PaymentMethodStruct,
  PaymentPlanListStruct,
  PlanBodyStruct,
  StaffCouponListStruct,
  StaffCouponStruct,
  StaffPlanListStruct,
  StaffPlanStruct,
  SubscriptionListStruct,
  SubscriptionStruct,
} from './billing.ts';
import {
  AdminLoginStruct,
  CreditsAnswerStruct,
  OrganizationFieldsStruct,
  OrganizationListQueryStruct,
  OrganizationRowListStruct,
  StaffOrganizationStruct,
  UpdateCreditsBodyStruct,
  UpdateOrganizationBodyStruct,
} from './customers.ts';
import { EventStreamQueryStruct, EventTicketStruct } from './events.ts';
import { ImpersonationListQueryStruct, ImpersonationListStruct } from './impersonations.ts';
import * as holidays from './holidays.ts';
import { Id } from './fields.ts';
import { ID_PARAM_NAMES, type AnyOperation, type HttpMethod } from './define.ts';
import type { AnyStruct } from './json-schema.ts';
import { MeStruct } from './me.ts';
import * as reviewMail from './review-mail.ts';
import { DeliverableBodyStruct, LinkBodyStruct, LinkStruct, MediaJobListStruct } from './media.ts';
import { CreateOrganizationBodyStruct, IdResponseStruct, OrganizationStruct } from './organizations.ts';
import {
  AssignEditorBodyStruct,
  CreateProjectBodyStruct,
  DashboardPageStruct,
  DashboardQueryStruct,
  ProjectListQueryStruct,
  ProjectListStruct,
  ProjectStruct,
  ReviewPeriodBodyStruct,
  UpdateProjectBodyStruct,
} from './projects.ts';
import { CommentListStruct, CommentStruct, CommentsExportQueryStruct, CommentsQueryStruct, CreateCommentBodyStruct, ThreadStruct, UpdateCommentBodyStruct, VersionListStruct } from './review.ts';
import { AssetDeleteAllQueryStruct, AssetListQueryStruct, AssetListStruct, AssetStruct, CheckNameQueryStruct, CheckNameStruct, RegisterAssetBodyStruct, UploadCredentialsBodyStruct, UploadCredentialsStruct, UploadRefusalBodyStruct } from './uploads.ts';
import {
  AssetPathBodyStruct,
  CustomerUserBodyStruct,
  OrganizationUsersQueryStruct,
  SetEnabledBodyStruct,
  StaffUserBodyStruct,
  TrialUserListStruct,
  TrialUsersQueryStruct,
  UserListStruct,
  UserStruct,
  UsersQueryStruct,
} from './users.ts';

/**
 * Every call of the API (base path /api/v1), declared once: the OpenAPI document and the HTML
 * reference (GET /api/v1/openapi.json, /api/v1/reference) are generated from this list and the
 * contract structs, and tests/server/api-reference.test.ts fails when a route the server
 * registers has no entry here, or an entry names no route. Adding a route: add its entry below.
 *
 * `who` uses the roles of docs/api.md: M = SUPERADMIN or ADMIN, S = any staff, O = owner of the
 * organization, C = any member of it, V = anyone who may see the project; "anyone" needs no token.
 */

export type { HttpMethod };

/** An answer: its meaning, and its body (a struct, or alternatives) when it has a JSON one. */
export interface Answer {
  description: string;
  body?: AnyStruct | readonly AnyStruct[];
  /** A body that is not JSON (a redirect, a playlist). */
  contentType?: string;
}

export interface Operation {
  method: HttpMethod;
  /** Under /api/v1, path parameters in braces: `/organizations/{id}`. */
  path: string;
  tag: string;
  summary: string;
  /** Who may call it, in the roles of docs/api.md. */
  who: string;
  /** `bearer`: `Authorization: Bearer <token>`; `none`: no token; `link`: the signed link is the credential. */
  auth: 'bearer' | 'none' | 'link' | 'stripe-signature';
  /** Path parameters other than ids (ids default to the `Id` struct). */
  params?: Record<string, AnyStruct>;
  query?: AnyStruct;
  /** The JSON body, or its alternatives (which one applies is in `notes`). */
  body?: AnyStruct | readonly AnyStruct[];
  /** Status → answer; a string is an error answer (`{ message, code?, fields? }`) with that meaning. */
  responses: Record<number, Answer | string>;
  /** Limited per address (429 past the limit). */
  rateLimited?: boolean;
  /** Registered only in some configurations. */
  onlyWhen?: 'embedded-gateway' | 'stripe-webhook';
  notes?: string;
}

/** Value sets of the domain, so custom checks that accept exactly one of them read as enums. */
export const ENUM_CANDIDATES: readonly (readonly string[])[] = [ROLES, ASSET_TYPES, ['Asset', 'InterviewClip', 'BRollClip'], UPLOAD_TYPES, PROJECT_STATUSES, FINAL_VIDEO_LENGTHS, ['APPROVED'], ['editor', 'admin', 'superadmin', 'staff']];

export const TAGS: { name: string; description: string }[] = [
  { name: 'Session', description: 'Sign-in, registration, password recovery and the signed-in user.' },
  { name: 'Organizations', description: 'Organizations, their credits and users (C§7, A§7).' },
  { name: 'Users', description: 'Users of both portals: invite, list, edit, enable, delete.' },
  { name: 'Projects', description: 'Projects, the staff dashboard and the project state machine (C§4, A§4).' },
  { name: 'Uploads and assets', description: 'Upload credentials and the raw files of a project (issue 4).' },
  { name: 'Media and delivery', description: 'The final video, download links and media links (issue 6).' },
  { name: 'Review', description: 'Versions of the final video and frame-accurate, time-coded review comments.' },
  { name: 'Guest review', description: 'Share links: the owner shares one version with someone without an account, who watches and comments through the link.' },
  { name: 'Live updates', description: 'Server-Sent Events: what changed on a project or the staff dashboard, opened with a short-lived ticket.' },
  { name: 'Billing', description: 'Plans, coupons, cards and subscriptions (issue 11).' },
  { name: 'Business calendar', description: 'The holidays every SLA timer, deadline and reminder leaves out (issue 36).' },
  { name: 'Reference', description: 'This reference, generated from the contract structs.' },
];

const ok = (description: string, body?: AnyStruct | readonly AnyStruct[]): Answer => ({ description, ...(body ? { body } : {}) });

/** What the reference says of an operation beyond its definition: its tag, summary, who may call it in docs/api.md's roles, each answer's meaning. */
type Prose = Omit<Operation, 'method' | 'path' | 'query' | 'auth'> & { auth?: Operation['auth'] };

/**
 * The reference entry of an operation defined once (define.ts): method, path, query, body and
 * the success answer's struct come from the definition; `prose` says the rest. `auth` follows
 * the access (public: no token) unless the entry names the credential (a signed link).
 */
function documented(definition: AnyOperation, prose: Prose): Operation {
  const success = definition.status ?? 200;
  const described = prose.responses[success];
  const responses = typeof described === 'object' && !described.body && definition.answer ? { ...prose.responses, [success]: { ...described, body: definition.answer } } : prose.responses;
  return {
    method: definition.method,
    path: definition.path,
    auth: prose.auth ?? (definition.access === 'public' ? 'none' : 'bearer'),
    ...(definition.query && { query: definition.query }),
    ...(definition.body && { body: definition.body }),
    ...prose,
    responses,
  };
}
const NOT_FOUND = 'Missing, or another organization’s.';
const FORBIDDEN = 'The role may not (an impersonation token counts as the owner and is refused on M/S calls).';
const STATUS_CONFLICT = 'Not allowed in the project’s status (the message says why).';

const FILE = enums(['preview.mp4', 'stream.m3u8', 'thumbnail.jpg', 'hd.mp4', 'low-res.mp4']);
const text = string();
const StatusStruct = object({ status: enums(['ok']) });
const ReadinessStruct = object({
  status: enums(['ready', 'starting', 'unavailable', 'stopping']),
  checks: object({ migrations: boolean(), database: boolean(), storage: boolean() }),
});

/** The seven staff transitions that are one call each (A§7). */
const TRANSITIONS: [string, string, string][] = [
  ['approve', 'C', 'Approve the edit in review (IN_REVIEW → APPROVED).'],
  ['archive', 'M', 'Complete an approved project with a final video (→ ARCHIVED); 403 otherwise.'],
  ['hide', 'M', 'Delete for staff (→ HIDDEN).'],
  ['restore', 'M', 'Restore a hidden project (HIDDEN → ARCHIVED).'],
  ['pause', 'M', 'Pause the SLA timer (IN_EDITING → PAUSED).'],
  ['resume', 'M', 'Resume (PAUSED → IN_EDITING).'],
  ['restore_to_review', 'M', 'Back to review (APPROVED → IN_REVIEW).'],
];

export const OPERATIONS: readonly Operation[] = [
  // Session
  { method: 'GET', path: '/health', tag: 'Session', summary: 'Liveness: the process answers. Reads nothing (a database outage does not fail it: see `ready`).', who: 'anyone', auth: 'none', responses: { 200: ok('Up.', StatusStruct) } },
  {
    method: 'GET', path: '/ready', tag: 'Session', summary: 'Readiness: send this instance traffic. Every migration applied, the database and the object store answer, not shutting down.', who: 'anyone', auth: 'none',
    notes: '`starting` until the object store first connected, `unavailable` when a check fails later (the database does not answer, say), `stopping` from the start of shutdown. Checks answer within 2 s; an answer is reused for a second.',
    responses: { 200: ok('Ready.', ReadinessStruct), 503: ok('Not ready (`Retry-After: 5`): `status` says why, `checks` which part failed.', ReadinessStruct) },
  },
  {
    method: 'GET', path: '/ops/backup', tag: 'Session', summary: 'The archive `npm run backup` saves while the server runs: the embedded database, every object, the secrets and a SHA-256 manifest, as a tar stream.', who: 'the same machine, with the token derived from the server’s secret', auth: 'link',
    notes: 'Only from loopback and not forwarded, with `Authorization: Bearer <backup token>` (server/ops/backup/backup-token.ts). With PostgreSQL or an external store: 409 naming their own tools.',
    responses: { 200: { description: 'The archive.', contentType: 'application/x-tar' }, 404: 'Anyone else: as if it did not exist.', 409: 'Not an embedded installation.' },
  },
  { method: 'GET', path: '/client-config', tag: 'Session', summary: 'What the web app needs before sign-in: the reCAPTCHA site key (or null) and the card form to use (`payments`: the embedded gateway, or Stripe with its publishable key).', who: 'anyone', auth: 'none', responses: { 200: ok('Public settings.', ClientConfigStruct) } },
  {
    method: 'POST', path: '/login', tag: 'Session', summary: 'Sign in.', who: 'anyone', auth: 'none', body: LoginBodyStruct, rateLimited: true,
    responses: { 200: ok('A session token.', SessionStruct), 401: 'Wrong e-mail or password, or a disabled account (the login-failure text).' },
  },
  { method: 'GET', path: '/me', tag: 'Session', summary: 'The signed-in user.', who: 'any signed-in user', auth: 'bearer', responses: { 200: ok('The user.', MeStruct) } },
  {
    method: 'PUT', path: '/me/refresh-token', tag: 'Session', summary: 'A new expiry for the same session.', who: 'any signed-in user', auth: 'bearer',
    notes: 'The sign-in time is kept: never past 30 days after sign-in, then 401 and a new sign-in.',
    responses: { 200: ok('The new token.', TokenStruct) },
  },
  documented(reviewMail.getReviewMail, { tag: 'Session', summary: 'Which review e-mails the signed-in user gets (issue 13).', who: 'any signed-in user', responses: { 200: ok('One flag per kind.') } }),
  documented(reviewMail.updateReviewMail, { tag: 'Session', summary: 'Switch review e-mail kinds on or off.', who: 'any signed-in user', responses: { 200: ok('The settings now.'), 400: 'Not a flag.' } }),
  documented(reviewMail.unsubscribeFromLink, {
    tag: 'Session', summary: 'The unsubscribe link of a review e-mail: turns its kind off; answers an HTML page.', who: 'the link’s holder', auth: 'link',
    responses: { 200: ok('Unsubscribed (an HTML page).'), 400: 'No token.', 404: 'A forged or malformed token (an HTML page).' },
  }),
  documented(reviewMail.unsubscribeOneClick, {
    tag: 'Session', summary: 'One-click unsubscribe (RFC 8058, `List-Unsubscribe-Post`).', who: 'the link’s holder', auth: 'link',
    responses: { 204: ok('Unsubscribed.'), 400: 'No token.', 404: 'A forged or malformed token.' },
  }),
  {
    method: 'POST', path: '/register', tag: 'Session', summary: 'Register an owner.', who: 'anyone', auth: 'none', body: RegisterBodyStruct, rateLimited: true,
    responses: { 201: ok('Signed in, no organization yet (organizationId null).', SessionStruct), 409: 'The e-mail is used (`fields.email`).' },
  },
  { method: 'GET', path: '/score', tag: 'Session', summary: 'Bot-check score of a token.', who: 'anyone', auth: 'none', query: object({ token: text }), rateLimited: true, responses: { 200: ok('The score.', ScoreStruct) } },
  {
    method: 'PUT', path: '/password-recover', tag: 'Session', summary: 'Mail a recovery link.', who: 'anyone', auth: 'none', body: RecoverBodyStruct, rateLimited: true,
    responses: { 204: ok('Always, whether or not the e-mail has an account.') },
  },
  {
    method: 'PUT', path: '/password-recover-complete', tag: 'Session', summary: 'Set a new password with a recovery or invitation code.', who: 'anyone', auth: 'none', body: RecoverCompleteBodyStruct, rateLimited: true,
    notes: 'Every older token of the user stops working (401); the answer’s token is the one that stays signed in.',
    responses: { 200: ok('Signed in.', SessionStruct), 400: 'Invalid input, or a bad code (`code: 100`).' },
  },

  // Organizations
  {
    method: 'POST', path: '/organizations', tag: 'Organizations', summary: 'Name the new owner’s organization (registration step 1).', who: 'an owner without one', auth: 'bearer', body: CreateOrganizationBodyStruct,
    responses: { 201: ok('Created.', IdResponseStruct), 403: 'Not an owner.', 409: 'The name is used, or the caller already has an organization.' },
  },
  {
    method: 'GET', path: '/organizations', tag: 'Organizations', summary: 'Customers and onboarding lists.', who: 'M', auth: 'bearer', query: OrganizationListQueryStruct,
    responses: { 200: ok('A page of rows.', OrganizationRowListStruct), 403: FORBIDDEN },
  },
  {
    method: 'GET', path: '/organizations/{id}', tag: 'Organizations', summary: 'One organization.', who: 'C, S', auth: 'bearer',
    notes: 'Customers get the customer answer; staff also get the row fields plus project, asset and user counts.',
    responses: { 200: ok('The organization.', [OrganizationStruct, StaffOrganizationStruct]), 404: NOT_FOUND },
  },
  {
    method: 'PATCH', path: '/organizations/{id}', tag: 'Organizations', summary: 'Change exactly one field: state, assetsLink, trackingCode or projectReviewPeriod.', who: 'M', auth: 'bearer', body: UpdateOrganizationBodyStruct,
    notes: '`assetsLink` null/"" clears; `trackingCode` needs an active subscription.',
    responses: { 200: ok('The editable fields as saved.', OrganizationFieldsStruct), 403: FORBIDDEN, 404: NOT_FOUND, 409: 'Onboarding already complete, or no active subscription for a tracking code.' },
  },
  { method: 'DELETE', path: '/organizations/{id}', tag: 'Organizations', summary: 'Soft-delete the organization and its users.', who: 'M', auth: 'bearer', responses: { 204: ok('Deleted.'), 403: FORBIDDEN, 404: NOT_FOUND } },
  {
    method: 'GET', path: '/organizations/{id}/admin/login', tag: 'Organizations', summary: 'Sign in as the organization’s owner (impersonation).', who: 'M', auth: 'bearer',
    responses: { 200: ok('A token for the owner that names the admin.', AdminLoginStruct), 403: FORBIDDEN, 404: NOT_FOUND, 409: 'No enabled owner.' },
  },
  {
    method: 'GET', path: '/impersonations', tag: 'Organizations', summary: 'The Log In As trail: who signed in as which organization, when and for how long, newest first (issue 36).', who: 'SUPERADMIN', auth: 'bearer', query: ImpersonationListQueryStruct,
    notes: '`endedBy`: `staff` (Admin logout or a sign-out; `endedAt` is when), `expiry` (no end recorded and the token expired; `endedAt` is `expiresAt`), `unknown` (recorded before the trail kept ends), null while it lasts. No token is kept.',
    responses: { 200: ok('A page of sessions.', ImpersonationListStruct), 403: FORBIDDEN },
  },
  {
    method: 'POST', path: '/impersonations/end', tag: 'Organizations', summary: 'End the Log In As session of this token on the trail (Admin logout).', who: 'an impersonation token', auth: 'bearer',
    responses: { 204: ok('Recorded (the first end stays).'), 403: 'Not an impersonation token.' },
  },
  { method: 'GET', path: '/organizations/{id}/credits', tag: 'Organizations', summary: 'The organization’s credits.', who: 'C, S', auth: 'bearer', responses: { 200: ok('The credits.', CreditsAnswerStruct), 404: NOT_FOUND } },
  {
    method: 'PUT', path: '/organizations/{id}/credits', tag: 'Organizations', summary: 'Set credits, term and storage.', who: 'M', auth: 'bearer', body: UpdateCreditsBodyStruct,
    responses: { 200: ok('The credits as saved.', CreditsAnswerStruct), 400: 'Invalid input; credits below the used ones (`fields.credits`).', 403: FORBIDDEN, 404: NOT_FOUND, 409: 'Projects used credits meanwhile (same message, `fields.credits`).' },
  },
  {
    method: 'GET', path: '/organizations/{id}/users', tag: 'Organizations', summary: 'The organization’s users (deleted ones never).', who: 'C, S', auth: 'bearer', query: OrganizationUsersQueryStruct,
    responses: { 200: ok('A page of users.', UserListStruct), 404: NOT_FOUND },
  },

  // Users
  {
    method: 'GET', path: '/users', tag: 'Users', summary: 'Staff users by role, newest first.', who: 'M (S for role=editor)', auth: 'bearer', query: UsersQueryStruct,
    responses: { 200: ok('A page of users.', UserListStruct), 403: FORBIDDEN },
  },
  {
    method: 'GET', path: '/users/trial', tag: 'Users', summary: 'Owners whose organization has no subscription yet.', who: 'M', auth: 'bearer', query: TrialUsersQueryStruct,
    responses: { 200: ok('A page of trial users.', TrialUserListStruct), 403: FORBIDDEN },
  },
  {
    method: 'POST', path: '/users', tag: 'Users', summary: 'Invite a user: an owner adds a User; staff add an Editor (a superadmin also an Admin).', who: 'O (role User), M (role Editor; Admin: superadmin only)', auth: 'bearer',
    body: [CustomerUserBodyStruct, StaffUserBodyStruct], notes: 'CustomerUserBody for a User, StaffUserBody (`phone?` without the rule, `profilePictureUrl?`) for staff. The invitation is e-mailed.',
    responses: { 201: ok('The user.', UserStruct), 403: FORBIDDEN, 409: 'The e-mail is used (`fields.email`).' },
  },
  {
    method: 'PATCH', path: '/users/{id}', tag: 'Users', summary: 'Enable/disable a user, or change their details.', who: 'O for their users, M for editors (superadmin: admins), anyone for themselves (details only)', auth: 'bearer',
    body: [SetEnabledBodyStruct, CustomerUserBodyStruct, StaffUserBodyStruct], notes: 'Either `{ isEnabled }` or the details as in POST users (CustomerUserBody or StaffUserBody by the user’s role). Disabling ends the user’s sessions.',
    responses: { 200: ok('The user as saved.', UserStruct), 403: FORBIDDEN, 404: NOT_FOUND, 409: 'The e-mail is used.' },
  },
  { method: 'DELETE', path: '/users/{id}', tag: 'Users', summary: 'Soft-delete a user (never oneself).', who: 'as PATCH users/{id}', auth: 'bearer', responses: { 204: ok('Deleted.'), 403: 'Not allowed, or an editor with assigned projects.', 404: NOT_FOUND } },
  {
    method: 'DELETE', path: '/users/{id}/editor', tag: 'Users', summary: 'Soft-delete an editor.', who: 'M', auth: 'bearer',
    responses: { 204: ok('Deleted.'), 403: '"You can not delete an editor who has assigned projects.", or not allowed.', 404: 'Not an editor, or missing.' },
  },
  { method: 'PATCH', path: '/users/{id}/invite-link', tag: 'Users', summary: 'Resend the invitation (the previous link stops working).', who: 'as DELETE users/{id}', auth: 'bearer', responses: { 204: ok('Sent.'), 403: FORBIDDEN, 404: NOT_FOUND, 409: 'A disabled user.' } },
  {
    method: 'PATCH', path: '/users/{id}/asset-path', tag: 'Users', summary: 'The editor’s drive link (null/"" clears it).', who: 'M', auth: 'bearer', body: AssetPathBodyStruct,
    responses: { 200: ok('The editor.', UserStruct), 403: FORBIDDEN, 404: 'Not an editor, or missing.' },
  },

  // Projects
  {
    method: 'GET', path: '/projects', tag: 'Projects', summary: 'Staff dashboard: active, completed (archived) or deleted (hidden) projects, sorted across pages.', who: 'S', auth: 'bearer', query: DashboardQueryStruct,
    responses: { 200: ok('A page of rows (default 30).', DashboardPageStruct), 403: FORBIDDEN },
  },
  {
    method: 'GET', path: '/organizations/{id}/projects', tag: 'Projects', summary: 'The organization’s projects, newest first.', who: 'C, S (a deleted organization: 404)', auth: 'bearer', query: ProjectListQueryStruct,
    notes: '`type` (the content library) or `section` (one section of the customer board); `total` counts every project the query matches.',
    responses: { 200: ok('A page of projects.', ProjectListStruct), 404: NOT_FOUND },
  },
  {
    method: 'POST', path: '/organizations/{id}/projects', tag: 'Projects', summary: 'Create a project from a brief.', who: 'C of that organization', auth: 'bearer', body: CreateProjectBodyStruct,
    responses: { 201: ok('Created (OPENED).', IdResponseStruct), 403: 'Staff.', 404: NOT_FOUND },
  },
  { method: 'GET', path: '/projects/{id}', tag: 'Projects', summary: 'One project.', who: 'V', auth: 'bearer', responses: { 200: ok('The project.', ProjectStruct), 404: NOT_FOUND } },
  {
    method: 'PATCH', path: '/projects/{id}', tag: 'Projects', summary: 'Rename, edit the brief (customers, OPENED only) or set one link (staff; editors not the assets link).', who: 'V', auth: 'bearer', body: UpdateProjectBodyStruct,
    responses: { 200: ok('The project.', ProjectStruct), 400: 'Invalid input, or nothing to change.', 403: FORBIDDEN, 404: NOT_FOUND, 409: `${STATUS_CONFLICT} Also when the project changed meanwhile.` },
  },
  { method: 'DELETE', path: '/projects/{id}', tag: 'Projects', summary: 'Delete a project in assembly (→ DELETED).', who: 'C', auth: 'bearer', responses: { 204: ok('Deleted.'), 403: FORBIDDEN, 404: NOT_FOUND, 409: STATUS_CONFLICT } },
  ...TRANSITIONS.map(([name, who, summary]): Operation => ({
    method: 'POST', path: `/projects/{id}/${name}`, tag: 'Projects', summary, who, auth: 'bearer',
    responses: { 200: ok('The project.', ProjectStruct), 403: FORBIDDEN, 404: NOT_FOUND, 409: STATUS_CONFLICT },
  })),
  {
    method: 'POST', path: '/projects/{id}/submit', tag: 'Projects', summary: 'Send to editing or ask for a revision (customer); send the edit to review (staff).', who: 'C, M', auth: 'bearer',
    responses: { 200: ok('The project.', ProjectStruct), 403: FORBIDDEN, 404: NOT_FOUND, 409: `${STATUS_CONFLICT} Staff: a final video is needed first.` },
  },
  { method: 'POST', path: '/projects/{id}/duplicate', tag: 'Projects', summary: 'Copy the project (assets shared) as a new one in assembly.', who: 'C', auth: 'bearer', responses: { 201: ok('The copy.', IdResponseStruct), 403: FORBIDDEN, 404: NOT_FOUND } },
  {
    method: 'POST', path: '/projects/{id}/assign-editor', tag: 'Projects', summary: 'Assign an editor (WAITING_FOR_EDITOR → IN_EDITING).', who: 'M', auth: 'bearer', body: AssignEditorBodyStruct,
    responses: { 200: ok('The project.', ProjectStruct), 400: 'Invalid input, or not an enabled editor (`fields.editorId`).', 403: FORBIDDEN, 404: NOT_FOUND, 409: STATUS_CONFLICT },
  },
  {
    method: 'POST', path: '/projects/{id}/unassign-editor', tag: 'Projects', summary: 'Take the editor off a project being edited (IN_EDITING → WAITING_FOR_EDITOR).', who: 'M', auth: 'bearer',
    responses: { 200: ok('The project.', ProjectStruct), 403: FORBIDDEN, 404: NOT_FOUND, 409: STATUS_CONFLICT },
  },
  {
    method: 'PUT', path: '/projects/{id}/review_period', tag: 'Projects', summary: 'Set the review period in whole days while IN_REVIEW.', who: 'M', auth: 'bearer', body: ReviewPeriodBodyStruct,
    responses: { 200: ok('The project.', ProjectStruct), 403: FORBIDDEN, 404: NOT_FOUND, 409: STATUS_CONFLICT },
  },

  // Uploads and assets
  {
    method: 'POST', path: '/uploads/credentials', tag: 'Uploads and assets', summary: 'Credentials (1 h) that may write only under the project’s upload prefix.', who: 'C while OPENED (asset); M with uploadType deliverable unless OPENED, WAITING_FOR_EDITOR, DELETED, HIDDEN', auth: 'bearer', body: UploadCredentialsBodyStruct,
    responses: { 200: ok('Credentials, bound to this session.', UploadCredentialsStruct), 403: 'The role, or the wrong upload type.', 404: NOT_FOUND, 409: STATUS_CONFLICT },
  },
  {
    method: 'POST', path: '/uploads/refusals', tag: 'Uploads and assets', summary: 'Tells the server that a proxy in front of it refused an upload request as too large (413), which the server never saw: logged as a warning for the operator.', who: 'V', auth: 'bearer', body: UploadRefusalBodyStruct,
    responses: { 204: ok('Logged.'), 400: 'Not a 413, or not a size.', 404: NOT_FOUND },
  },
  {
    method: 'GET', path: '/projects/{id}/assets', tag: 'Uploads and assets', summary: 'The project’s assets, with presigned GETs (6 h).', who: 'V', auth: 'bearer', query: AssetListQueryStruct,
    responses: { 200: ok('The assets.', AssetListStruct), 404: NOT_FOUND },
  },
  {
    method: 'GET', path: '/projects/{id}/assets/check-name', tag: 'Uploads and assets', summary: 'A sanitised file name, unique in its folder, and the key to write (reserved 8 days).', who: 'C while OPENED', auth: 'bearer', query: CheckNameQueryStruct,
    responses: { 200: ok('The name and location.', CheckNameStruct), 403: FORBIDDEN, 404: NOT_FOUND, 409: STATUS_CONFLICT },
  },
  {
    method: 'POST', path: '/projects/{id}/assets', tag: 'Uploads and assets', summary: 'Register an uploaded object as an asset; queues its proxy and thumbnail.', who: 'C while OPENED', auth: 'bearer', body: RegisterAssetBodyStruct,
    responses: {
      200: ok('Registered already: the existing asset.', AssetStruct),
      201: ok('The asset.', AssetStruct),
      400: 'The object is missing, of another size, or outside `projects/{id}/raw/<type folder>/`.',
      403: FORBIDDEN,
      404: NOT_FOUND,
      409: 'Outside OPENED, or past the storage quota: `{ message: "There is no more memory.", code: 507 }` (the object is deleted).',
    },
  },
  {
    method: 'DELETE', path: '/projects/{id}/assets', tag: 'Uploads and assets', summary: 'Delete every asset of a type (none: every type).', who: 'C while OPENED, APPROVED or ARCHIVED', auth: 'bearer', query: AssetDeleteAllQueryStruct,
    responses: { 204: ok('Deleted; bytes freed.'), 403: FORBIDDEN, 404: NOT_FOUND, 409: STATUS_CONFLICT },
  },
  {
    method: 'DELETE', path: '/projects/{id}/assets/{assetId}', tag: 'Uploads and assets', summary: 'Delete one asset; the object goes with its last record.', who: 'C while OPENED', auth: 'bearer',
    responses: { 204: ok('Deleted.'), 403: FORBIDDEN, 404: NOT_FOUND, 409: STATUS_CONFLICT },
  },

  // Media and delivery
  {
    method: 'POST', path: '/projects/{id}/deliverable', tag: 'Media and delivery', summary: 'Register the final video uploaded under `projects/{id}/final/`; queues the media work.', who: 'M', auth: 'bearer', body: DeliverableBodyStruct,
    responses: { 200: ok('The project.', ProjectStruct), 400: 'Outside the folder, missing, or not a video.', 403: FORBIDDEN, 404: NOT_FOUND, 409: 'While OPENED, WAITING_FOR_EDITOR, DELETED or HIDDEN.' },
  },
  {
    method: 'POST', path: '/projects/{id}/links', tag: 'Media and delivery', summary: 'A presigned GET of 15 minutes for an original, its proxy or the final video.', who: 'V', auth: 'bearer', body: LinkBodyStruct,
    notes: 'Spec form: `name, type?, uploadType?` (`<name>_proxy.mp4` with `uploadType: "deliverable"` for a proxy); or `assetId, variant`.',
    responses: { 200: ok('The link.', LinkStruct), 404: NOT_FOUND, 409: 'The proxy is not ready.' },
  },
  {
    method: 'GET', path: '/projects/{id}/media-jobs', tag: 'Media and delivery', summary: 'The media work of a project, failures with their error.', who: 'S', auth: 'bearer',
    responses: { 200: ok('The jobs and whether ffmpeg is available.', MediaJobListStruct), 403: FORBIDDEN, 404: NOT_FOUND },
  },
  {
    method: 'GET', path: '/media/{token}/{file}', tag: 'Media and delivery', summary: 'A media link of the final video (in project answers, signed for the caller, valid 12 hours).', who: 'the link’s holder', auth: 'link',
    params: { token: text, file: FILE },
    responses: {
      200: { description: 'The HLS master playlist (`stream.m3u8`).', contentType: 'application/vnd.apple.mpegurl' },
      302: ok('Redirect to a presigned URL.'),
      404: 'Failed, missing, or not a valid link.',
      410: 'Expired link.',
      503: 'Being processed (`Retry-After: 5`).',
    },
  },
  {
    method: 'GET', path: '/media/{token}/stream/{variant}/playlist.m3u8', tag: 'Media and delivery', summary: 'A variant playlist of the HLS rendition, segments presigned.', who: 'the link’s holder', auth: 'link',
    params: { token: text, variant: text },
    responses: { 200: { description: 'The playlist.', contentType: 'application/vnd.apple.mpegurl' }, 404: 'Failed, missing, or not a valid link.', 410: 'Expired link.', 503: 'Being processed (`Retry-After: 5`).' },
  },

  // Billing
  { method: 'GET', path: '/payment-plans', tag: 'Billing', summary: 'The plans, in display order: id, name, monthlyCredits, storage (TB), pricePerMonth, pricePerYear, currency, termMonths, kitType.', who: 'anyone', auth: 'none', responses: { 200: ok('The plans on sale (retired ones are not listed).', PaymentPlanListStruct) } },
  {
    method: 'GET', path: '/payment-plans/coupons/{code}', tag: 'Billing', summary: 'Check a coupon code for this organization: code, percentOff, amountOff, validUntil.', who: 'C (staff: 403)', auth: 'bearer', rateLimited: true, params: { code: text },
    responses: { 200: ok('The coupon.', CouponCheckStruct), 403: FORBIDDEN, 404: 'Unknown, retired, expired, exhausted or already used (`fields.coupon`).' },
  },
  {
    method: 'POST', path: '/payment-methods', tag: 'Billing', summary: 'Tokenize a card with the embedded gateway: number, expMonth, expYear, cvc → paymentMethodId, brand, last4, expMonth, expYear.', who: 'O of their own organization', auth: 'bearer', rateLimited: true, onlyWhen: 'embedded-gateway',
    notes: 'Not registered with Stripe (Stripe.js tokenizes). The number and CVC are never stored or logged.',
    body: AddCardBodyStruct,
    responses: { 201: ok('The payment method.', PaymentMethodStruct), 400: 'Every failing field at once: `fields.number`, `fields.expiry`, `fields.cvc`.', 403: FORBIDDEN },
  },
  {
    method: 'GET', path: '/organizations/{id}/subscriptions', tag: 'Billing', summary: 'Subscriptions that ran, newest first, with invoices (billing and shipping for the owner and staff).', who: 'C, S', auth: 'bearer',
    responses: { 200: ok('The subscriptions.', SubscriptionListStruct), 404: NOT_FOUND },
  },
  {
    method: 'POST', path: '/organizations/{id}/subscriptions', tag: 'Billing', summary: 'Buy a plan: one transaction for the subscription, term, credits, storage, invoice, coupon and kit.', who: 'O (USER, staff, impersonation: 403)', auth: 'bearer', body: CreateSubscriptionBodyStruct,
    notes: 'Header `Idempotency-Key` (8–100 of `A-Z a-z 0-9 - _`) takes precedence over `idempotencyKey`; the same key never charges twice.',
    responses: {
      200: ok('The same key again: the same subscription, no new charge.', SubscriptionStruct),
      201: ok('The subscription, with billing and shipping; its receipt is e-mailed to the billing e-mail.', SubscriptionStruct),
      402: 'Declined; the reason in `message` and `fields.paymentMethodId`.',
      403: FORBIDDEN,
      404: NOT_FOUND,
      409: 'A subscription runs (also a cancelled one before its end) or another purchase is under way.',
      503: 'The gateway does not answer (retry with the same key).',
    },
  },
  {
    method: 'DELETE', path: '/organizations/{id}/subscriptions', tag: 'Billing', summary: 'Cancel at the end of the term (nothing refunded).', who: 'O', auth: 'bearer',
    responses: { 204: ok('Cancelled (again: 204).'), 403: FORBIDDEN, 404: 'Nothing to cancel: "Your organization has no subscription to cancel."' },
  },
  {
    method: 'POST', path: '/billing/stripe-webhook', tag: 'Billing', summary: 'Stripe’s events, verified with `Stripe-Signature`.', who: 'Stripe', auth: 'stripe-signature', onlyWhen: 'stripe-webhook',
    notes: 'Only with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET. An event id already handled is acknowledged again, not handled twice.',
    responses: { 200: ok('Received.', object({ received: literal(true) })), 400: 'Missing, wrong or stale signature.' },
  },
  {
    method: 'GET', path: '/admin/payment-plans', tag: 'Billing', summary: 'Every plan, retired ones too, with the number of subscriptions running on it.', who: 'M', auth: 'bearer',
    responses: { 200: ok('The plans, in display order.', StaffPlanListStruct), 403: FORBIDDEN },
  },
  {
    method: 'POST', path: '/admin/payment-plans', tag: 'Billing', summary: 'Create a plan (sold at once unless `retired`).', who: 'M', auth: 'bearer', body: PlanBodyStruct,
    responses: { 201: ok('The plan.', StaffPlanStruct), 400: 'A message per failing field.', 403: FORBIDDEN },
  },
  {
    method: 'PUT', path: '/admin/payment-plans/{id}', tag: 'Billing', summary: 'Edit a plan; `retired` retires it or brings it back.', who: 'M', auth: 'bearer', body: PlanBodyStruct,
    notes: 'Applies to purchases from now on and to running subscriptions at their next yearly renewal (price, credits, storage, term); the term already paid keeps what was bought. A plan with running subscriptions keeps its currency. A retired plan is not sold; its subscriptions keep renewing.',
    responses: { 200: ok('The plan.', StaffPlanStruct), 400: 'A message per failing field.', 403: FORBIDDEN, 404: 'No such plan.' },
  },
  {
    method: 'GET', path: '/admin/coupons', tag: 'Billing', summary: 'Every coupon, newest first, with its redemptions.', who: 'M', auth: 'bearer',
    responses: { 200: ok('The coupons.', StaffCouponListStruct), 403: FORBIDDEN },
  },
  {
    method: 'POST', path: '/admin/coupons', tag: 'Billing', summary: 'Create a coupon: code (stored upper-case), exactly one of percentOff and amountOff.', who: 'M', auth: 'bearer', body: CouponBodyStruct,
    responses: { 201: ok('The coupon.', StaffCouponStruct), 400: 'A message per failing field (`code` required; both or neither discount: `percentOff` and `amountOff`).', 403: FORBIDDEN, 409: 'The code exists (in any case): `fields.code`.' },
  },
  {
    method: 'PUT', path: '/admin/coupons/{code}', tag: 'Billing', summary: 'Edit a coupon (its code stays); `retired` retires it or brings it back.', who: 'M', auth: 'bearer', body: CouponBodyStruct, params: { code: text },
    notes: 'The path code is matched without regard to case. `maxRedemptions` may not go below `timesRedeemed`.',
    responses: { 200: ok('The coupon.', StaffCouponStruct), 400: 'A message per failing field.', 403: FORBIDDEN, 404: 'No such coupon.' },
  },

  // Review
  {
    method: 'GET', path: '/projects/{id}/versions', tag: 'Review', summary: 'The versions of the final video the caller may see, oldest first, with frame rate, length in frames and (current version) media links.', who: 'V', auth: 'bearer',
    notes: 'Customers see versions once staff sent them to review. `frameRateKnown: false`: not probed yet, 30/1 assumed.',
    responses: { 200: ok('The versions.', VersionListStruct), 404: NOT_FOUND },
  },
  {
    method: 'GET', path: '/projects/{id}/comments', tag: 'Review', summary: 'The comments of one version: threads by frame, each with its replies and SMPTE timecode, and what the caller may do to each.', who: 'V', auth: 'bearer', query: CommentsQueryStruct,
    notes: 'A deleted thread that still has replies stays as a placeholder (`deleted: true`, no text). Text is plain text.',
    responses: { 200: ok('The comments.', CommentListStruct), 400: 'No or a bad `version`.', 404: 'Project or version missing, another organization’s, or a version not sent to review (customers).' },
  },
  {
    method: 'GET', path: '/projects/{id}/comments/{commentId}', tag: 'Review', summary: 'The thread a comment belongs to (the comment itself, or its parent) with its replies, as the list shows it: what a page reads when the event stream names a changed comment.', who: 'V', auth: 'bearer',
    responses: { 200: ok('The thread.', ThreadStruct), 404: 'Project or comment missing, the thread deleted with no reply left, or on a version the caller may not see.' },
  },
  {
    method: 'POST', path: '/projects/{id}/comments', tag: 'Review', summary: 'Comment on a frame or range (`frame`, `endFrame` exclusive, optional `drawing`), or reply to a thread (`parentId`, no frame).', who: 'V', auth: 'bearer', body: CreateCommentBodyStruct,
    responses: {
      201: ok('The comment.', CommentStruct),
      400: 'A message per field: text 1–2000 characters, frame ≥ 0 and within the video, endFrame after frame, a reply to a reply, a bad drawing.',
      403: 'An impersonation token (comments are written in one’s own name).',
      404: 'Project, version or parent missing, or not visible to the caller.',
      409: 'The project is approved or archived: comments are read-only.',
    },
  },
  {
    method: 'PATCH', path: '/projects/{id}/comments/{commentId}', tag: 'Review', summary: 'Edit the text (author) or resolve/reopen a thread (`resolved`; staff and the author).', who: 'V', auth: 'bearer', body: UpdateCommentBodyStruct,
    responses: { 200: ok('The comment.', CommentStruct), 400: 'Invalid text, nothing to change, or resolving a reply.', 403: 'Not the author (edit) or neither author nor staff (resolve).', 404: NOT_FOUND, 409: 'The project is approved or archived.' },
  },
  {
    method: 'DELETE', path: '/projects/{id}/comments/{commentId}', tag: 'Review', summary: 'Delete a comment (soft): the author while the review is open; SUPERADMIN and ADMIN any, any time.', who: 'V', auth: 'bearer',
    notes: 'A deleted thread’s replies stay readable under an empty placeholder.',
    responses: { 204: ok('Deleted.'), 403: 'Not the author.', 404: NOT_FOUND, 409: 'The project is approved or archived.' },
  },
  {
    method: 'GET', path: '/projects/{id}/comments/export', tag: 'Review', summary: 'A version’s threads as markers: CSV, CMX3600 marker EDL (DaVinci Resolve) or FCPXML 1.9 (Final Cut Pro); or as a printable PDF with a picture of each commented frame. As an attachment.', who: 'S', auth: 'bearer', query: CommentsExportQueryStruct,
    responses: {
      200: { description: 'The file (`Content-Disposition: attachment`): text/csv, text/plain (EDL), application/xml (FCPXML) or application/pdf (PDF).', contentType: 'text/csv' },
      400: 'No or a bad `version` or `format`.',
      403: FORBIDDEN,
      404: NOT_FOUND,
    },
  },

  // Guest review (share links)
  {
    method: 'GET', path: '/projects/{id}/share-links', tag: 'Guest review', summary: 'The project’s share links, newest first: version, URL, state (active, expired, revoked), expiry, whether a password protects it, guests’ comments, last opened.', who: 'the organization’s OWNER', auth: 'bearer',
    responses: { 200: ok('The links.', ShareLinkListStruct), 403: 'Not the owner.', 404: NOT_FOUND },
  },
  {
    method: 'POST', path: '/projects/{id}/share-links', tag: 'Guest review', summary: 'Share one version sent for review with someone without an account: `expiresInDays` 1, 7 or 30, an optional `password` (6–128 characters, stored hashed).', who: 'the organization’s OWNER (not through an impersonation)', auth: 'bearer', body: CreateShareLinkBodyStruct,
    notes: 'The URL’s token is derived from the link’s id and a random salt with the server’s secret, never stored; the owner can copy it again from the list.',
    responses: {
      201: ok('The link with its URL.', ShareLinkStruct),
      400: 'A message per field: the expiry choice, the password’s length.',
      403: 'Not the owner, or an impersonation token.',
      404: 'Project missing or another organization’s, or a version not sent to review.',
      409: 'The project is not in review, or it already has 20 working links.',
    },
  },
  {
    method: 'DELETE', path: '/projects/{id}/share-links/{linkId}', tag: 'Guest review', summary: 'Revoke a link: at once, for every guest holding it (its media links too).', who: 'the organization’s OWNER', auth: 'bearer',
    responses: { 204: ok('Revoked.'), 403: 'Not the owner.', 404: NOT_FOUND },
  },
  {
    method: 'GET', path: '/share/{token}', tag: 'Guest review', summary: 'The guest’s page: the project’s and organization’s names, the version with its media links, whether comments are open. A protected link without a pass answers `review: null` and `requiresPassword: true`.', who: 'the link’s holder', auth: 'link',
    responses: { 200: ok('The page.', GuestReviewStruct), 404: 'Not a link.', 410: 'The link expired or was revoked, or the version is no longer shown.' },
  },
  {
    method: 'POST', path: '/share/{token}/access', tag: 'Guest review', summary: 'The password of a protected link, for a pass of 12 hours to send as `x-share-pass` (the event stream: `?pass=`).', who: 'the link’s holder', auth: 'link', body: ShareAccessBodyStruct,
    responses: { 200: ok('The pass.', SharePassStruct), 400: 'The wrong password (`fields.password`).', 404: 'Not a link.', 410: 'The link ended.', 429: 'More than 10 attempts a minute for this link from this address.' },
  },
  {
    method: 'GET', path: '/share/{token}/comments', tag: 'Guest review', summary: 'The link’s version’s threads, as on the members’ pages (a guest may change none).', who: 'the link’s holder', auth: 'link',
    responses: { 200: ok('The comments.', CommentListStruct), 401: 'A protected link without its pass.', 404: 'Not a link.', 410: 'The link ended.' },
  },
  {
    method: 'POST', path: '/share/{token}/comments', tag: 'Guest review', summary: 'A guest’s comment or reply on the link’s version, signed with `guestName` (1–80 characters).', who: 'the link’s holder', auth: 'link', body: GuestCommentBodyStruct,
    responses: {
      201: ok('The comment (author role `GUEST`).', CommentStruct),
      400: 'A message per field, as for members, and `guestName`.',
      401: 'A protected link without its pass.',
      404: 'Not a link, or a parent that is not on this version.',
      409: 'The project is approved: comments are read-only.',
      410: 'The link ended.',
      429: 'More than 60 comments a minute for this link from this address.',
    },
  },
  {
    method: 'GET', path: '/share/{token}/events', tag: 'Guest review', summary: 'Changes of the link’s version (comments) and of the project’s status, as Server-Sent Events, for the guest’s page.', who: 'the link’s holder', auth: 'link', query: GuestStreamQueryStruct,
    responses: { 200: { description: 'The stream.', contentType: 'text/event-stream' }, 401: 'A protected link without its pass.', 404: 'Not a link.', 410: 'The link ended.' },
  },

  // Live updates
  {
    method: 'POST', path: '/projects/{id}/events/ticket', tag: 'Live updates', summary: 'A 60-second ticket that opens the project’s event stream (EventSource sends no header).', who: 'V', auth: 'bearer',
    responses: { 200: ok('The ticket and its lifetime in seconds.', EventTicketStruct), 404: NOT_FOUND },
  },
  {
    method: 'GET', path: '/projects/{id}/events', tag: 'Live updates', summary: 'The project’s changes as Server-Sent Events: `{ type: comment | project | resync, projectId, version?, at }`, a ping comment every 25 s.', who: 'the ticket’s holder', auth: 'link', query: EventStreamQueryStruct,
    notes: 'Opened with `?ticket=` from the call above. Events say what changed, never the data: read it through the API. `resync`: events may have been missed, read everything again.',
    responses: {
      200: { description: 'The stream, until the client leaves, 30 minutes pass or the server shuts down.', contentType: 'text/event-stream' },
      401: 'No ticket, a bad or expired one, another stream’s, or a session that ended since.',
      404: NOT_FOUND,
      429: 'Too many streams open for this user on this server.',
    },
  },
  {
    method: 'POST', path: '/dashboard/events/ticket', tag: 'Live updates', summary: 'A 60-second ticket that opens the staff dashboard’s event stream.', who: 'S', auth: 'bearer',
    responses: { 200: ok('The ticket and its lifetime in seconds.', EventTicketStruct), 403: FORBIDDEN },
  },
  {
    method: 'GET', path: '/dashboard/events', tag: 'Live updates', summary: 'Every project’s status, assignment and creation as Server-Sent Events (`type: project`), for the staff dashboard.', who: 'the ticket’s holder (S)', auth: 'link', query: EventStreamQueryStruct,
    responses: {
      200: { description: 'The stream.', contentType: 'text/event-stream' },
      401: 'No ticket, a bad or expired one, another stream’s, or a session that ended since.',
      403: 'No longer staff.',
      429: 'Too many streams open for this user on this server.',
    },
  },

  // Business calendar (issue 36 item 11)
  documented(holidays.getBusinessCalendar, {
    tag: 'Business calendar', summary: 'The holiday calendar: the edits relative to the US federal holidays (observed dates), and this year’s and next year’s holidays.', who: 'any signed-in user',
    notes: 'A business day is a Monday–Friday date in `timeZone` that is no holiday. Clients build the calendar from `edits` with src/domain/holiday-calendar.ts, as the server does.',
    responses: { 200: ok('The calendar.') },
  }),
  documented(holidays.addHoliday, {
    tag: 'Business calendar', summary: 'Add a holiday: a weekday that is no holiday yet, with its name.', who: 'SUPERADMIN',
    notes: 'Every project’s stored SLA deadline is counted again in the same transaction; open boards and pages hear `{ type: project, projectId: null }`.',
    responses: { 201: ok('The calendar after the edit.'), 400: 'Not a date, out of 2000–2100, a Saturday or Sunday, or no name (`fields` says which).', 403: FORBIDDEN, 409: 'Already a holiday, or a removed default holiday (restore it instead).' },
  }),
  documented(holidays.removeHoliday, {
    tag: 'Business calendar', summary: 'Remove the holiday on a date: an added one is deleted, a default one is marked removed (a business day again).', who: 'SUPERADMIN', params: { date: text },
    responses: { 200: ok('The calendar after the edit.'), 403: FORBIDDEN, 404: 'No holiday on that date.' },
  }),
  documented(holidays.restoreHoliday, {
    tag: 'Business calendar', summary: 'Restore a removed default holiday.', who: 'SUPERADMIN', params: { date: text },
    responses: { 200: ok('The calendar after the edit.'), 403: FORBIDDEN, 404: 'Not a removed default holiday.' },
  }),

  // Reference
  { method: 'GET', path: '/openapi.json', tag: 'Reference', summary: 'This API as an OpenAPI 3.1 document.', who: 'anyone', auth: 'none', responses: { 200: ok('The document.') } },
  { method: 'GET', path: '/reference', tag: 'Reference', summary: 'This API as a browsable page.', who: 'anyone', auth: 'none', responses: { 200: { description: 'An HTML page.', contentType: 'text/html' } } },
];

/** Path parameters that are row ids. */
export const ID_PARAMS: Record<string, AnyStruct> = Object.fromEntries(ID_PARAM_NAMES.map((name) => [name, Id]));
