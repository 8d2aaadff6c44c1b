import { enums, string } from 'superstruct';
import * as auth from './auth.ts';
import * as billing from './billing.ts';
import { StaffOrganizationStruct } from './customers.ts';
import * as customers from './customers.ts';
import * as events from './events.ts';
import * as impersonations from './impersonations.ts';
import * as holidays from './holidays.ts';
import { Id } from './fields.ts';
import { ID_PARAM_NAMES, type AnyOperation, type HttpMethod } from './define.ts';
import type { AnyStruct } from './json-schema.ts';
import * as me from './me.ts';
import * as reviewMail from './review-mail.ts';
import * as service from './service.ts';
import * as media from './media.ts';
import * as organizations from './organizations.ts';
import { OrganizationStruct } from './organizations.ts';
import * as projects from './projects.ts';
import * as review from './review.ts';
import * as shareLinks from './share-links.ts';
import * as uploads from './uploads.ts';
import * as users from './users.ts';
import { CustomerUserBodyStruct, SetEnabledBodyStruct, StaffUserBodyStruct } from './users.ts';

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

export const TAGS: { name: string; description: string }[] = [
  { name: 'Session', description: 'Sign-in, registration, password recovery and the signed-in user.' },
  { name: 'Organizations', description: 'Organizations, their credits and users (C§7, A§7).' },
  { name: 'Users', description: 'Users of both portals: invite, list, edit, enable, delete.' },
  { name: 'Projects', description: 'Projects, the staff dashboard and the project state machine (C§4, A§4).' },
  { name: 'Uploads and assets', description: 'Upload credentials and the raw files of a project (issue 4).' },
  { name: 'Media and delivery', description: 'The final video, download links and media links (issue 6).' },
  { name: 'Review', description: 'Versions of the final video and frame-accurate, time-coded review comments.' },
  {
    name: 'Guest review',
    description: 'Share links: the owner shares one version with someone without an account, who watches and comments through the link.',
  },
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
  const responses =
    typeof described === 'object' && !described.body && definition.answer
      ? { ...prose.responses, [success]: { ...described, body: definition.answer } }
      : prose.responses;
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

/** The seven staff transitions that are one call each (A§7). */
const TRANSITIONS: [AnyOperation, string, string][] = [
  [projects.approveProject, 'C', 'Approve the edit in review (IN_REVIEW → APPROVED).'],
  [projects.archiveProject, 'M', 'Complete an approved project with a final video (→ ARCHIVED); 403 otherwise.'],
  [projects.hideProject, 'M', 'Delete for staff (→ HIDDEN).'],
  [projects.restoreProject, 'M', 'Restore a hidden project (HIDDEN → ARCHIVED).'],
  [projects.pauseProject, 'M', 'Pause the SLA timer (IN_EDITING → PAUSED).'],
  [projects.resumeProject, 'M', 'Resume (PAUSED → IN_EDITING).'],
  [projects.restoreProjectToReview, 'M', 'Back to review (APPROVED → IN_REVIEW).'],
];

export const OPERATIONS: readonly Operation[] = [
  // Session
  documented(service.getHealth, {
    tag: 'Session',
    summary: 'Liveness: the process answers. Reads nothing (a database outage does not fail it: see `ready`).',
    who: 'anyone',
    responses: { 200: ok('Up.') },
  }),
  documented(service.getReadiness, {
    tag: 'Session',
    summary: 'Readiness: send this instance traffic. Every migration applied, the database and the object store answer, not shutting down.',
    who: 'anyone',
    notes:
      '`starting` until the object store first connected, `unavailable` when a check fails later (the database does not answer, say), `stopping` from the start of shutdown. Checks answer within 2 s; an answer is reused for a second.',
    responses: { 200: ok('Ready.'), 503: ok('Not ready (`Retry-After: 5`): `status` says why, `checks` which part failed.', service.ReadinessStruct) },
  }),
  documented(service.getBackup, {
    tag: 'Session',
    summary:
      'The archive `npm run backup` saves while the server runs: the embedded database, every object, the secrets and a SHA-256 manifest, as a tar stream.',
    who: 'the same machine, with the token derived from the server’s secret',
    auth: 'link',
    notes:
      'Only from loopback and not forwarded, with `Authorization: Bearer <backup token>` (server/ops/backup/backup-token.ts). With PostgreSQL or an external store: 409 naming their own tools.',
    responses: {
      200: { description: 'The archive.', contentType: 'application/x-tar' },
      404: 'Anyone else: as if it did not exist.',
      409: 'Not an embedded installation.',
    },
  }),
  documented(auth.getClientConfig, {
    tag: 'Session',
    summary:
      'What the web app needs before sign-in: the reCAPTCHA site key (or null) and the card form to use (`payments`: the embedded gateway, or Stripe with its publishable key).',
    who: 'anyone',
    responses: { 200: ok('Public settings.') },
  }),
  documented(auth.login, {
    tag: 'Session',
    summary: 'Sign in.',
    who: 'anyone',
    rateLimited: true,
    responses: { 200: ok('A session token.'), 401: 'Wrong e-mail or password, or a disabled account (the login-failure text).' },
  }),
  documented(me.getMe, { tag: 'Session', summary: 'The signed-in user.', who: 'any signed-in user', responses: { 200: ok('The user.') } }),
  documented(auth.refreshToken, {
    tag: 'Session',
    summary: 'A new expiry for the same session.',
    who: 'any signed-in user',
    notes: 'The sign-in time is kept: never past 30 days after sign-in, then 401 and a new sign-in.',
    responses: { 200: ok('The new token.') },
  }),
  documented(reviewMail.getReviewMail, {
    tag: 'Session',
    summary: 'Which review e-mails the signed-in user gets (issue 13).',
    who: 'any signed-in user',
    responses: { 200: ok('One flag per kind.') },
  }),
  documented(reviewMail.updateReviewMail, {
    tag: 'Session',
    summary: 'Switch review e-mail kinds on or off.',
    who: 'any signed-in user',
    responses: { 200: ok('The settings now.'), 400: 'Not a flag.' },
  }),
  documented(reviewMail.unsubscribeFromLink, {
    tag: 'Session',
    summary: 'The unsubscribe link of a review e-mail: turns its kind off; answers an HTML page.',
    who: 'the link’s holder',
    auth: 'link',
    responses: { 200: ok('Unsubscribed (an HTML page).'), 400: 'No token.', 404: 'A forged or malformed token (an HTML page).' },
  }),
  documented(reviewMail.unsubscribeOneClick, {
    tag: 'Session',
    summary: 'One-click unsubscribe (RFC 8058, `List-Unsubscribe-Post`).',
    who: 'the link’s holder',
    auth: 'link',
    responses: { 204: ok('Unsubscribed.'), 400: 'No token.', 404: 'A forged or malformed token.' },
  }),
  documented(auth.register, {
    tag: 'Session',
    summary: 'Register an owner.',
    who: 'anyone',
    rateLimited: true,
    responses: { 201: ok('Signed in, no organization yet (organizationId null).'), 409: 'The e-mail is used (`fields.email`).' },
  }),
  documented(auth.score, { tag: 'Session', summary: 'Bot-check score of a token.', who: 'anyone', rateLimited: true, responses: { 200: ok('The score.') } }),
  documented(auth.recoverPassword, {
    tag: 'Session',
    summary: 'Mail a recovery link.',
    who: 'anyone',
    rateLimited: true,
    responses: { 204: ok('Always, whether or not the e-mail has an account.') },
  }),
  documented(auth.completeRecovery, {
    tag: 'Session',
    summary: 'Set a new password with a recovery or invitation code.',
    who: 'anyone',
    rateLimited: true,
    notes: 'Every older token of the user stops working (401); the answer’s token is the one that stays signed in.',
    responses: { 200: ok('Signed in.'), 400: 'Invalid input, or a bad code (`code: 100`).' },
  }),

  // Organizations
  documented(organizations.createOrganization, {
    tag: 'Organizations',
    summary: 'Name the new owner’s organization (registration step 1).',
    who: 'an owner without one',
    responses: { 201: ok('Created.'), 403: 'Not an owner.', 409: 'The name is used, or the caller already has an organization.' },
  }),
  documented(customers.listOrganizations, {
    tag: 'Organizations',
    summary: 'Customers and onboarding lists.',
    who: 'M',
    responses: { 200: ok('A page of rows.'), 403: FORBIDDEN },
  }),
  documented(customers.getOrganization, {
    tag: 'Organizations',
    summary: 'One organization.',
    who: 'C, S',
    notes: 'Customers get the customer answer; staff also get the row fields plus project, asset and user counts.',
    responses: { 200: ok('The organization.', [OrganizationStruct, StaffOrganizationStruct]), 404: NOT_FOUND },
  }),
  documented(customers.updateOrganization, {
    tag: 'Organizations',
    summary: 'Change exactly one field: state, assetsLink, trackingCode or projectReviewPeriod.',
    who: 'M',
    notes: '`assetsLink` null/"" clears; `trackingCode` needs an active subscription.',
    responses: {
      200: ok('The editable fields as saved.'),
      403: FORBIDDEN,
      404: NOT_FOUND,
      409: 'Onboarding already complete, or no active subscription for a tracking code.',
    },
  }),
  documented(customers.deleteOrganization, {
    tag: 'Organizations',
    summary: 'Soft-delete the organization and its users.',
    who: 'M',
    responses: { 204: ok('Deleted.'), 403: FORBIDDEN, 404: NOT_FOUND },
  }),
  documented(customers.adminLogin, {
    tag: 'Organizations',
    summary: 'Sign in as the organization’s owner (impersonation).',
    who: 'M',
    responses: { 200: ok('A token for the owner that names the admin.'), 403: FORBIDDEN, 404: NOT_FOUND, 409: 'No enabled owner.' },
  }),
  documented(impersonations.listImpersonations, {
    tag: 'Organizations',
    summary: 'The Log In As trail: who signed in as which organization, when and for how long, newest first (issue 36).',
    who: 'SUPERADMIN',
    notes:
      '`endedBy`: `staff` (Admin logout or a sign-out; `endedAt` is when), `expiry` (no end recorded and the token expired; `endedAt` is `expiresAt`), `unknown` (recorded before the trail kept ends), null while it lasts. No token is kept.',
    responses: { 200: ok('A page of sessions.'), 403: FORBIDDEN },
  }),
  documented(impersonations.endImpersonation, {
    tag: 'Organizations',
    summary: 'End the Log In As session of this token on the trail (Admin logout).',
    who: 'an impersonation token',
    responses: { 204: ok('Recorded (the first end stays).'), 403: 'Not an impersonation token.' },
  }),
  documented(customers.getCredits, {
    tag: 'Organizations',
    summary: 'The organization’s credits.',
    who: 'C, S',
    responses: { 200: ok('The credits.'), 404: NOT_FOUND },
  }),
  documented(customers.updateCredits, {
    tag: 'Organizations',
    summary: 'Set credits, term and storage.',
    who: 'M',
    responses: {
      200: ok('The credits as saved.'),
      400: 'Invalid input; credits below the used ones (`fields.credits`).',
      403: FORBIDDEN,
      404: NOT_FOUND,
      409: 'Projects used credits meanwhile (same message, `fields.credits`).',
    },
  }),
  documented(users.listOrganizationUsers, {
    tag: 'Organizations',
    summary: 'The organization’s users (deleted ones never).',
    who: 'C, S',
    responses: { 200: ok('A page of users.'), 404: NOT_FOUND },
  }),

  // Users
  documented(users.listUsers, {
    tag: 'Users',
    summary: 'Staff users by role, newest first.',
    who: 'M (S for role=editor)',
    responses: { 200: ok('A page of users.'), 403: FORBIDDEN },
  }),
  documented(users.listTrialUsers, {
    tag: 'Users',
    summary: 'Owners whose organization has no subscription yet.',
    who: 'M',
    responses: { 200: ok('A page of trial users.'), 403: FORBIDDEN },
  }),
  documented(users.createUser, {
    tag: 'Users',
    summary: 'Invite a user: an owner adds a User; staff add an Editor (a superadmin also an Admin).',
    who: 'O (role User), M (role Editor; Admin: superadmin only)',
    body: [CustomerUserBodyStruct, StaffUserBodyStruct],
    notes: 'CustomerUserBody for a User, StaffUserBody (`phone?` without the rule, `profilePictureUrl?`) for staff. The invitation is e-mailed.',
    responses: { 201: ok('The user.'), 403: FORBIDDEN, 409: 'The e-mail is used (`fields.email`).' },
  }),
  documented(users.updateUser, {
    tag: 'Users',
    summary: 'Enable/disable a user, or change their details.',
    who: 'O for their users, M for editors (superadmin: admins), anyone for themselves (details only)',
    body: [SetEnabledBodyStruct, CustomerUserBodyStruct, StaffUserBodyStruct],
    notes: 'Either `{ isEnabled }` or the details as in POST users (CustomerUserBody or StaffUserBody by the user’s role). Disabling ends the user’s sessions.',
    responses: { 200: ok('The user as saved.'), 403: FORBIDDEN, 404: NOT_FOUND, 409: 'The e-mail is used.' },
  }),
  documented(users.deleteUser, {
    tag: 'Users',
    summary: 'Soft-delete a user (never oneself).',
    who: 'as PATCH users/{id}',
    responses: { 204: ok('Deleted.'), 403: 'Not allowed, or an editor with assigned projects.', 404: NOT_FOUND },
  }),
  documented(users.deleteEditor, {
    tag: 'Users',
    summary: 'Soft-delete an editor.',
    who: 'M',
    responses: { 204: ok('Deleted.'), 403: '"You can not delete an editor who has assigned projects.", or not allowed.', 404: 'Not an editor, or missing.' },
  }),
  documented(users.resendInvite, {
    tag: 'Users',
    summary: 'Resend the invitation (the previous link stops working).',
    who: 'as DELETE users/{id}',
    responses: { 204: ok('Sent.'), 403: FORBIDDEN, 404: NOT_FOUND, 409: 'A disabled user.' },
  }),
  documented(users.setEditorAssetPath, {
    tag: 'Users',
    summary: 'The editor’s drive link (null/"" clears it).',
    who: 'M',
    responses: { 200: ok('The editor.'), 403: FORBIDDEN, 404: 'Not an editor, or missing.' },
  }),

  // Projects
  documented(projects.listDashboard, {
    tag: 'Projects',
    summary: 'Staff dashboard: active, completed (archived) or deleted (hidden) projects, sorted across pages.',
    who: 'S',
    responses: { 200: ok('A page of rows (default 30).'), 403: FORBIDDEN },
  }),
  documented(projects.listOrganizationProjects, {
    tag: 'Projects',
    summary: 'The organization’s projects, newest first.',
    who: 'C, S (a deleted organization: 404)',
    notes: '`type` (the content library) or `section` (one section of the customer board); `total` counts every project the query matches.',
    responses: { 200: ok('A page of projects.'), 404: NOT_FOUND },
  }),
  documented(projects.createProject, {
    tag: 'Projects',
    summary: 'Create a project from a brief.',
    who: 'C of that organization',
    responses: { 201: ok('Created (OPENED).'), 403: 'Staff.', 404: NOT_FOUND },
  }),
  documented(projects.getProject, { tag: 'Projects', summary: 'One project.', who: 'V', responses: { 200: ok('The project.'), 404: NOT_FOUND } }),
  documented(projects.updateProject, {
    tag: 'Projects',
    summary: 'Rename, edit the brief (customers, OPENED only) or set one link (staff; editors not the assets link).',
    who: 'V',
    responses: {
      200: ok('The project.'),
      400: 'Invalid input, or nothing to change.',
      403: FORBIDDEN,
      404: NOT_FOUND,
      409: `${STATUS_CONFLICT} Also when the project changed meanwhile.`,
    },
  }),
  documented(projects.deleteProject, {
    tag: 'Projects',
    summary: 'Delete a project in assembly (→ DELETED).',
    who: 'C',
    responses: { 204: ok('Deleted.'), 403: FORBIDDEN, 404: NOT_FOUND, 409: STATUS_CONFLICT },
  }),
  ...TRANSITIONS.map(([operation, who, summary]) =>
    documented(operation, { tag: 'Projects', summary, who, responses: { 200: ok('The project.'), 403: FORBIDDEN, 404: NOT_FOUND, 409: STATUS_CONFLICT } }),
  ),
  documented(projects.submitProject, {
    tag: 'Projects',
    summary: 'Send to editing or ask for a revision (customer); send the edit to review (staff).',
    who: 'C, M',
    responses: { 200: ok('The project.'), 403: FORBIDDEN, 404: NOT_FOUND, 409: `${STATUS_CONFLICT} Staff: a final video is needed first.` },
  }),
  documented(projects.duplicateProject, {
    tag: 'Projects',
    summary: 'Copy the project (assets shared) as a new one in assembly.',
    who: 'C',
    responses: { 201: ok('The copy.'), 403: FORBIDDEN, 404: NOT_FOUND },
  }),
  documented(projects.assignEditor, {
    tag: 'Projects',
    summary: 'Assign an editor (WAITING_FOR_EDITOR → IN_EDITING).',
    who: 'M',
    responses: {
      200: ok('The project.'),
      400: 'Invalid input, or not an enabled editor (`fields.editorId`).',
      403: FORBIDDEN,
      404: NOT_FOUND,
      409: STATUS_CONFLICT,
    },
  }),
  documented(projects.unassignEditor, {
    tag: 'Projects',
    summary: 'Take the editor off a project being edited (IN_EDITING → WAITING_FOR_EDITOR).',
    who: 'M',
    responses: { 200: ok('The project.'), 403: FORBIDDEN, 404: NOT_FOUND, 409: STATUS_CONFLICT },
  }),
  documented(projects.setReviewPeriod, {
    tag: 'Projects',
    summary: 'Set the review period in whole days while IN_REVIEW.',
    who: 'M',
    responses: { 200: ok('The project.'), 403: FORBIDDEN, 404: NOT_FOUND, 409: STATUS_CONFLICT },
  }),

  // Uploads and assets
  documented(uploads.requestUploadCredentials, {
    tag: 'Uploads and assets',
    summary: 'Credentials (1 h) that may write only under the project’s upload prefix.',
    who: 'C while OPENED (asset); M with uploadType deliverable unless OPENED, WAITING_FOR_EDITOR, DELETED, HIDDEN',
    responses: { 200: ok('Credentials, bound to this session.'), 403: 'The role, or the wrong upload type.', 404: NOT_FOUND, 409: STATUS_CONFLICT },
  }),
  documented(uploads.reportUploadRefusal, {
    tag: 'Uploads and assets',
    summary:
      'Tells the server that a proxy in front of it refused an upload request as too large (413), which the server never saw: logged as a warning for the operator.',
    who: 'V',
    responses: { 204: ok('Logged.'), 400: 'Not a 413, or not a size.', 404: NOT_FOUND },
  }),
  documented(uploads.listAssets, {
    tag: 'Uploads and assets',
    summary: 'The project’s assets, with presigned GETs (6 h).',
    who: 'V',
    responses: { 200: ok('The assets.'), 404: NOT_FOUND },
  }),
  documented(uploads.checkAssetName, {
    tag: 'Uploads and assets',
    summary: 'A sanitised file name, unique in its folder, and the key to write (reserved 8 days).',
    who: 'C while OPENED',
    responses: { 200: ok('The name and location.'), 403: FORBIDDEN, 404: NOT_FOUND, 409: STATUS_CONFLICT },
  }),
  documented(uploads.registerAsset, {
    tag: 'Uploads and assets',
    summary: 'Register an uploaded object as an asset; queues its proxy and thumbnail.',
    who: 'C while OPENED',
    responses: {
      200: ok('Registered already: the existing asset.', uploads.AssetStruct),
      201: ok('The asset.'),
      400: 'The object is missing, of another size, or outside `projects/{id}/raw/<type folder>/`.',
      403: FORBIDDEN,
      404: NOT_FOUND,
      409: 'Outside OPENED, or past the storage quota: `{ message: "There is no more memory.", code: 507 }` (the object is deleted).',
    },
  }),
  documented(uploads.lookupStoredCopy, {
    tag: 'Uploads and assets',
    summary: 'Whether the organization holds a stored object of this size and fingerprint, and its CRC-32 (issue 35).',
    who: 'C while OPENED',
    notes: 'The fingerprint is SHA-256 over the size and 16 blocks of 256 KiB (src/domain/fingerprint.ts). `crc32` null: none, upload the file.',
    responses: { 200: ok('The stored copy’s CRC-32, or null.'), 400: 'Not a size or a fingerprint.', 403: FORBIDDEN, 404: NOT_FOUND, 409: STATUS_CONFLICT },
  }),
  documented(uploads.reuseStoredCopy, {
    tag: 'Uploads and assets',
    summary: 'The file as an asset of the organization’s stored copy with the same size, fingerprint and CRC-32: no byte sent (issue 35).',
    who: 'C while OPENED',
    responses: {
      200: ok('Made already by a concurrent call: its asset.', uploads.AssetStruct),
      201: ok('The asset, sharing the stored object (not counted again against the storage).'),
      400: 'Not a name, type, size, fingerprint or CRC-32.',
      403: FORBIDDEN,
      404: 'No stored copy of this file, or this project holds it already (or the project is not found): upload it.',
      409: STATUS_CONFLICT,
      415: 'The stored bytes are not a file this zone takes.',
    },
  }),
  documented(uploads.deleteAllAssets, {
    tag: 'Uploads and assets',
    summary: 'Delete every asset of a type (none: every type).',
    who: 'C while OPENED, APPROVED or ARCHIVED',
    responses: { 204: ok('Deleted; bytes freed.'), 403: FORBIDDEN, 404: NOT_FOUND, 409: STATUS_CONFLICT },
  }),
  documented(uploads.deleteAsset, {
    tag: 'Uploads and assets',
    summary: 'Delete one asset; the object goes with its last record.',
    who: 'C while OPENED',
    responses: { 204: ok('Deleted.'), 403: FORBIDDEN, 404: NOT_FOUND, 409: STATUS_CONFLICT },
  }),

  // Media and delivery
  documented(media.registerDeliverable, {
    tag: 'Media and delivery',
    summary: 'Register the final video uploaded under `projects/{id}/final/`; queues the media work.',
    who: 'M',
    responses: {
      200: ok('The project.'),
      400: 'Outside the folder, missing, or not a video.',
      403: FORBIDDEN,
      404: NOT_FOUND,
      409: 'While OPENED, WAITING_FOR_EDITOR, DELETED or HIDDEN.',
    },
  }),
  documented(media.requestDownloadLink, {
    tag: 'Media and delivery',
    summary: 'A presigned GET of 15 minutes for an original, its proxy or the final video.',
    who: 'V',
    notes: 'Spec form: `name, type?, uploadType?` (`<name>_proxy.mp4` with `uploadType: "deliverable"` for a proxy); or `assetId, variant`.',
    responses: { 200: ok('The link.'), 404: NOT_FOUND, 409: 'The proxy is not ready.' },
  }),
  documented(media.requestZipLink, {
    tag: 'Media and delivery',
    summary: 'A link of 12 hours to the project’s raw zip (`project-{id}_raw_assets.zip`), with its length and number of files.',
    who: 'S',
    responses: { 200: ok('The link.'), 400: 'Not a kind of zip the server makes (`raw`).', 403: FORBIDDEN, 404: NOT_FOUND },
  }),
  documented(media.downloadAssetManifest, {
    tag: 'Media and delivery',
    summary: 'The raw zip’s manifest (CSV): each file’s path in the zip, size, CRC-32 and whether it is verified (issue 35).',
    who: 'S',
    responses: { 200: { description: 'The manifest (`Content-Disposition: attachment`).', contentType: 'text/csv' }, 403: FORBIDDEN, 404: NOT_FOUND },
  }),
  documented(media.downloadZip, {
    tag: 'Media and delivery',
    summary: 'The raw zip, streamed from the stored originals with their CRC-32s (Zip64 past 4 GiB), with its length.',
    who: 'the link’s holder',
    auth: 'link',
    params: { token: text, file: text },
    notes:
      'HEAD answers the same headers (the length included) without reading a file. `Range` (one range) with `If-Range` (the ETag) resumes a download: 206.',
    responses: {
      200: { description: 'The archive (`Content-Disposition: attachment`).', contentType: 'application/zip' },
      404: 'Not a valid link, or its session, its staff member or the project is gone.',
      206: { description: 'The part of the archive a `Range` asked for (`Content-Range`).', contentType: 'application/zip' },
      410: 'Expired link.',
      416: 'A range past the archive’s end.',
      429: 'Three zips of this staff member are downloading already.',
      503: 'The instance is sending eight zips already.',
    },
  }),
  documented(media.listMediaJobs, {
    tag: 'Media and delivery',
    summary: 'The media work of a project, failures with their error.',
    who: 'S',
    responses: { 200: ok('The jobs and whether ffmpeg is available.'), 403: FORBIDDEN, 404: NOT_FOUND },
  }),
  documented(media.getMediaFile, {
    tag: 'Media and delivery',
    summary: 'A media link of the final video (in project answers, signed for the caller, valid 12 hours).',
    who: 'the link’s holder',
    auth: 'link',
    params: { token: text, file: FILE },
    responses: {
      200: { description: 'The HLS master playlist (`stream.m3u8`).', contentType: 'application/vnd.apple.mpegurl' },
      302: ok('Redirect to a presigned URL.'),
      404: 'Failed, missing, or not a valid link.',
      410: 'Expired link.',
      503: 'Being processed (`Retry-After: 5`).',
    },
  }),
  documented(media.getStreamVariant, {
    tag: 'Media and delivery',
    summary: 'A variant playlist of the HLS rendition, segments presigned.',
    who: 'the link’s holder',
    auth: 'link',
    params: { token: text, variant: text },
    responses: {
      200: { description: 'The playlist.', contentType: 'application/vnd.apple.mpegurl' },
      404: 'Failed, missing, or not a valid link.',
      410: 'Expired link.',
      503: 'Being processed (`Retry-After: 5`).',
    },
  }),

  // Billing
  documented(billing.listPlans, {
    tag: 'Billing',
    summary: 'The plans, in display order: id, name, monthlyCredits, storage (TB), pricePerMonth, pricePerYear, currency, termMonths, kitType.',
    who: 'anyone',
    responses: { 200: ok('The plans on sale (retired ones are not listed).') },
  }),
  documented(billing.checkCoupon, {
    tag: 'Billing',
    summary: 'Check a coupon code for this organization: code, percentOff, amountOff, validUntil.',
    who: 'C (staff: 403)',
    rateLimited: true,
    params: { code: text },
    responses: { 200: ok('The coupon.'), 403: FORBIDDEN, 404: 'Unknown, retired, expired, exhausted or already used (`fields.coupon`).' },
  }),
  documented(billing.addCard, {
    tag: 'Billing',
    summary: 'Tokenize a card with the embedded gateway: number, expMonth, expYear, cvc → paymentMethodId, brand, last4, expMonth, expYear.',
    who: 'O of their own organization',
    rateLimited: true,
    onlyWhen: 'embedded-gateway',
    notes: 'Not registered with Stripe (Stripe.js tokenizes). The number and CVC are never stored or logged.',
    // The card form checks the fields itself (every problem at once): the definition's body only types the client's.
    body: billing.AddCardBodyStruct,
    responses: { 201: ok('The payment method.'), 400: 'Every failing field at once: `fields.number`, `fields.expiry`, `fields.cvc`.', 403: FORBIDDEN },
  }),
  documented(billing.listSubscriptions, {
    tag: 'Billing',
    summary: 'Subscriptions that ran, newest first, with invoices (billing and shipping for the owner and staff).',
    who: 'C, S',
    responses: { 200: ok('The subscriptions.'), 404: NOT_FOUND },
  }),
  documented(billing.createSubscription, {
    tag: 'Billing',
    summary: 'Buy a plan: one transaction for the subscription, term, credits, storage, invoice, coupon and kit.',
    who: 'O (USER, staff, impersonation: 403)',
    notes: 'Header `Idempotency-Key` (8–100 of `A-Z a-z 0-9 - _`) takes precedence over `idempotencyKey`; the same key never charges twice.',
    responses: {
      200: ok('The same key again: the same subscription, no new charge.', billing.SubscriptionStruct),
      201: ok('The subscription, with billing and shipping; its receipt is e-mailed to the billing e-mail.'),
      402: 'Declined; the reason in `message` and `fields.paymentMethodId`.',
      403: FORBIDDEN,
      404: NOT_FOUND,
      409: 'A subscription runs (also a cancelled one before its end) or another purchase is under way.',
      503: 'The gateway does not answer (retry with the same key).',
    },
  }),
  documented(billing.cancelSubscription, {
    tag: 'Billing',
    summary: 'Cancel at the end of the term (nothing refunded).',
    who: 'O',
    responses: { 204: ok('Cancelled (again: 204).'), 403: FORBIDDEN, 404: 'Nothing to cancel: "Your organization has no subscription to cancel."' },
  }),
  documented(billing.stripeWebhook, {
    tag: 'Billing',
    summary: 'Stripe’s events, verified with `Stripe-Signature`.',
    who: 'Stripe',
    auth: 'stripe-signature',
    onlyWhen: 'stripe-webhook',
    notes: 'Only with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET. An event id already handled is acknowledged again, not handled twice.',
    responses: { 200: ok('Received.'), 400: 'Missing, wrong or stale signature.' },
  }),
  documented(billing.listStaffPlans, {
    tag: 'Billing',
    summary: 'Every plan, retired ones too, with the number of subscriptions running on it.',
    who: 'M',
    responses: { 200: ok('The plans, in display order.'), 403: FORBIDDEN },
  }),
  documented(billing.createPlan, {
    tag: 'Billing',
    summary: 'Create a plan (sold at once unless `retired`).',
    who: 'M',
    responses: { 201: ok('The plan.'), 400: 'A message per failing field.', 403: FORBIDDEN },
  }),
  documented(billing.updatePlan, {
    tag: 'Billing',
    summary: 'Edit a plan; `retired` retires it or brings it back.',
    who: 'M',
    notes:
      'Applies to purchases from now on and to running subscriptions at their next yearly renewal (price, credits, storage, term); the term already paid keeps what was bought. A plan with running subscriptions keeps its currency. A retired plan is not sold; its subscriptions keep renewing.',
    responses: { 200: ok('The plan.'), 400: 'A message per failing field.', 403: FORBIDDEN, 404: 'No such plan.' },
  }),
  documented(billing.listCoupons, {
    tag: 'Billing',
    summary: 'Every coupon, newest first, with its redemptions.',
    who: 'M',
    responses: { 200: ok('The coupons.'), 403: FORBIDDEN },
  }),
  documented(billing.createCoupon, {
    tag: 'Billing',
    summary: 'Create a coupon: code (stored upper-case), exactly one of percentOff and amountOff.',
    who: 'M',
    // The catalog checks the body itself (its rules depend on the stored coupons): the definition's body only types the client's.
    body: billing.CouponBodyStruct,
    responses: {
      201: ok('The coupon.'),
      400: 'A message per failing field (`code` required; both or neither discount: `percentOff` and `amountOff`).',
      403: FORBIDDEN,
      409: 'The code exists (in any case): `fields.code`.',
    },
  }),
  documented(billing.updateCoupon, {
    tag: 'Billing',
    summary: 'Edit a coupon (its code stays); `retired` retires it or brings it back.',
    who: 'M',
    body: billing.CouponBodyStruct,
    params: { code: text },
    notes: 'The path code is matched without regard to case. `maxRedemptions` may not go below `timesRedeemed`.',
    responses: { 200: ok('The coupon.'), 400: 'A message per failing field.', 403: FORBIDDEN, 404: 'No such coupon.' },
  }),

  // Review
  documented(review.listVersions, {
    tag: 'Review',
    summary: 'The versions of the final video the caller may see, oldest first, with frame rate, length in frames and (current version) media links.',
    who: 'V',
    notes: 'Customers see versions once staff sent them to review. `frameRateKnown: false`: not probed yet, 30/1 assumed.',
    responses: { 200: ok('The versions.'), 404: NOT_FOUND },
  }),
  documented(review.listComments, {
    tag: 'Review',
    summary: 'The comments of one version: threads by frame, each with its replies and SMPTE timecode, and what the caller may do to each.',
    who: 'V',
    notes: 'A deleted thread that still has replies stays as a placeholder (`deleted: true`, no text). Text is plain text.',
    responses: {
      200: ok('The comments.'),
      400: 'No or a bad `version`.',
      404: 'Project or version missing, another organization’s, or a version not sent to review (customers).',
    },
  }),
  documented(review.getThread, {
    tag: 'Review',
    summary:
      'The thread a comment belongs to (the comment itself, or its parent) with its replies, as the list shows it: what a page reads when the event stream names a changed comment.',
    who: 'V',
    responses: { 200: ok('The thread.'), 404: 'Project or comment missing, the thread deleted with no reply left, or on a version the caller may not see.' },
  }),
  documented(review.createComment, {
    tag: 'Review',
    summary: 'Comment on a frame or range (`frame`, `endFrame` exclusive, optional `drawing`), or reply to a thread (`parentId`, no frame).',
    who: 'V',
    responses: {
      201: ok('The comment.'),
      400: 'A message per field: text 1–2000 characters, frame ≥ 0 and within the video, endFrame after frame, a reply to a reply, a bad drawing.',
      403: 'An impersonation token (comments are written in one’s own name).',
      404: 'Project, version or parent missing, or not visible to the caller.',
      409: 'The project is approved or archived: comments are read-only.',
    },
  }),
  documented(review.updateComment, {
    tag: 'Review',
    summary: 'Edit the text (author) or resolve/reopen a thread (`resolved`; staff and the author).',
    who: 'V',
    responses: {
      200: ok('The comment.'),
      400: 'Invalid text, nothing to change, or resolving a reply.',
      403: 'Not the author (edit) or neither author nor staff (resolve).',
      404: NOT_FOUND,
      409: 'The project is approved or archived.',
    },
  }),
  documented(review.deleteComment, {
    tag: 'Review',
    summary: 'Delete a comment (soft): the author while the review is open; SUPERADMIN and ADMIN any, any time.',
    who: 'V',
    notes: 'A deleted thread’s replies stay readable under an empty placeholder.',
    responses: { 204: ok('Deleted.'), 403: 'Not the author.', 404: NOT_FOUND, 409: 'The project is approved or archived.' },
  }),
  documented(review.exportComments, {
    tag: 'Review',
    summary:
      'A version’s threads as markers: CSV, CMX3600 marker EDL (DaVinci Resolve) or FCPXML 1.9 (Final Cut Pro); or as a printable PDF with a picture of each commented frame. As an attachment.',
    who: 'S',
    responses: {
      200: {
        description: 'The file (`Content-Disposition: attachment`): text/csv, text/plain (EDL), application/xml (FCPXML) or application/pdf (PDF).',
        contentType: 'text/csv',
      },
      400: 'No or a bad `version` or `format`.',
      403: FORBIDDEN,
      404: NOT_FOUND,
    },
  }),

  // Guest review (share links)
  documented(shareLinks.listShareLinks, {
    tag: 'Guest review',
    summary:
      'The project’s share links, newest first: version, URL, state (active, expired, revoked), expiry, whether a password protects it, guests’ comments, last opened.',
    who: 'the organization’s OWNER',
    responses: { 200: ok('The links.'), 403: 'Not the owner.', 404: NOT_FOUND },
  }),
  documented(shareLinks.createShareLink, {
    tag: 'Guest review',
    summary:
      'Share one version sent for review with someone without an account: `expiresInDays` 1, 7 or 30, an optional `password` (6–128 characters, stored hashed).',
    who: 'the organization’s OWNER (not through an impersonation)',
    notes: 'The URL’s token is derived from the link’s id and a random salt with the server’s secret, never stored; the owner can copy it again from the list.',
    responses: {
      201: ok('The link with its URL.'),
      400: 'A message per field: the expiry choice, the password’s length.',
      403: 'Not the owner, or an impersonation token.',
      404: 'Project missing or another organization’s, or a version not sent to review.',
      409: 'The project is not in review, or it already has 20 working links.',
    },
  }),
  documented(shareLinks.revokeShareLink, {
    tag: 'Guest review',
    summary: 'Revoke a link: at once, for every guest holding it (its media links too).',
    who: 'the organization’s OWNER',
    responses: { 204: ok('Revoked.'), 403: 'Not the owner.', 404: NOT_FOUND },
  }),
  documented(shareLinks.getGuestReview, {
    tag: 'Guest review',
    summary:
      'The guest’s page: the project’s and organization’s names, the version with its media links, whether comments are open. A protected link without a pass answers `review: null` and `requiresPassword: true`.',
    who: 'the link’s holder',
    auth: 'link',
    responses: { 200: ok('The page.'), 404: 'Not a link.', 410: 'The link expired or was revoked, or the version is no longer shown.' },
  }),
  documented(shareLinks.unlockShare, {
    tag: 'Guest review',
    summary: 'The password of a protected link, for a pass of 12 hours to send as `x-share-pass` (the event stream: `?pass=`).',
    who: 'the link’s holder',
    auth: 'link',
    responses: {
      200: ok('The pass.'),
      400: 'The wrong password (`fields.password`).',
      404: 'Not a link.',
      410: 'The link ended.',
      429: 'More than 10 attempts a minute for this link from this address.',
    },
  }),
  documented(shareLinks.listGuestComments, {
    tag: 'Guest review',
    summary: 'The link’s version’s threads, as on the members’ pages (a guest may change none).',
    who: 'the link’s holder',
    auth: 'link',
    responses: { 200: ok('The comments.'), 401: 'A protected link without its pass.', 404: 'Not a link.', 410: 'The link ended.' },
  }),
  documented(shareLinks.createGuestComment, {
    tag: 'Guest review',
    summary: 'A guest’s comment or reply on the link’s version, signed with `guestName` (1–80 characters).',
    who: 'the link’s holder',
    auth: 'link',
    responses: {
      201: ok('The comment (author role `GUEST`).'),
      400: 'A message per field, as for members, and `guestName`.',
      401: 'A protected link without its pass.',
      404: 'Not a link, or a parent that is not on this version.',
      409: 'The project is approved: comments are read-only.',
      410: 'The link ended.',
      429: 'More than 60 comments a minute for this link from this address.',
    },
  }),
  documented(shareLinks.guestEvents, {
    tag: 'Guest review',
    summary: 'Changes of the link’s version (comments) and of the project’s status, as Server-Sent Events, for the guest’s page.',
    who: 'the link’s holder',
    auth: 'link',
    responses: {
      200: { description: 'The stream.', contentType: 'text/event-stream' },
      401: 'A protected link without its pass.',
      404: 'Not a link.',
      410: 'The link ended.',
    },
  }),

  // Live updates
  documented(events.projectEventsTicket, {
    tag: 'Live updates',
    summary: 'A 60-second ticket that opens the project’s event stream (EventSource sends no header).',
    who: 'V',
    responses: { 200: ok('The ticket and its lifetime in seconds.'), 404: NOT_FOUND },
  }),
  documented(events.projectEvents, {
    tag: 'Live updates',
    summary: 'The project’s changes as Server-Sent Events: `{ type: comment | project | resync, projectId, version?, at }`, a ping comment every 25 s.',
    who: 'the ticket’s holder',
    auth: 'link',
    notes:
      'Opened with `?ticket=` from the call above. Events say what changed, never the data: read it through the API. `resync`: events may have been missed, read everything again.',
    responses: {
      200: { description: 'The stream, until the client leaves, 30 minutes pass or the server shuts down.', contentType: 'text/event-stream' },
      401: 'No ticket, a bad or expired one, another stream’s, or a session that ended since.',
      404: NOT_FOUND,
      429: 'Too many streams open for this user on this server.',
    },
  }),
  documented(events.dashboardEventsTicket, {
    tag: 'Live updates',
    summary: 'A 60-second ticket that opens the staff dashboard’s event stream.',
    who: 'S',
    responses: { 200: ok('The ticket and its lifetime in seconds.'), 403: FORBIDDEN },
  }),
  documented(events.dashboardEvents, {
    tag: 'Live updates',
    summary: 'Every project’s status, assignment and creation as Server-Sent Events (`type: project`), for the staff dashboard.',
    who: 'the ticket’s holder (S)',
    auth: 'link',
    responses: {
      200: { description: 'The stream.', contentType: 'text/event-stream' },
      401: 'No ticket, a bad or expired one, another stream’s, or a session that ended since.',
      403: 'No longer staff.',
      429: 'Too many streams open for this user on this server.',
    },
  }),

  // Business calendar (issue 36 item 11)
  documented(holidays.getBusinessCalendar, {
    tag: 'Business calendar',
    summary: 'The holiday calendar: the edits relative to the US federal holidays (observed dates), and this year’s and next year’s holidays.',
    who: 'any signed-in user',
    notes:
      'A business day is a Monday–Friday date in `timeZone` that is no holiday. Clients build the calendar from `edits` with src/domain/holiday-calendar.ts, as the server does.',
    responses: { 200: ok('The calendar.') },
  }),
  documented(holidays.addHoliday, {
    tag: 'Business calendar',
    summary: 'Add a holiday: a weekday that is no holiday yet, with its name.',
    who: 'SUPERADMIN',
    notes: 'Every project’s stored SLA deadline is counted again in the same transaction; open boards and pages hear `{ type: project, projectId: null }`.',
    responses: {
      201: ok('The calendar after the edit.'),
      400: 'Not a date, out of 2000–2100, a Saturday or Sunday, or no name (`fields` says which).',
      403: FORBIDDEN,
      409: 'Already a holiday, or a removed default holiday (restore it instead).',
    },
  }),
  documented(holidays.removeHoliday, {
    tag: 'Business calendar',
    summary: 'Remove the holiday on a date: an added one is deleted, a default one is marked removed (a business day again).',
    who: 'SUPERADMIN',
    params: { date: text },
    responses: { 200: ok('The calendar after the edit.'), 403: FORBIDDEN, 404: 'No holiday on that date.' },
  }),
  documented(holidays.restoreHoliday, {
    tag: 'Business calendar',
    summary: 'Restore a removed default holiday.',
    who: 'SUPERADMIN',
    params: { date: text },
    responses: { 200: ok('The calendar after the edit.'), 403: FORBIDDEN, 404: 'Not a removed default holiday.' },
  }),

  // Reference
  documented(service.getOpenApiDocument, {
    tag: 'Reference',
    summary: 'This API as an OpenAPI 3.1 document.',
    who: 'anyone',
    responses: { 200: ok('The document.') },
  }),
  documented(service.getReference, {
    tag: 'Reference',
    summary: 'This API as a browsable page.',
    who: 'anyone',
    responses: { 200: { description: 'An HTML page.', contentType: 'text/html' } },
  }),
];

/** Path parameters that are row ids. */
export const ID_PARAMS: Record<string, AnyStruct> = Object.fromEntries(ID_PARAM_NAMES.map((name) => [name, Id]));
