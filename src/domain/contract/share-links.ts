import { array, boolean, enums, number, object, omit, string, type Infer } from 'superstruct';
import { define, describedAs, nullable, optional } from './schema-notes.ts';
import { REVIEW_MESSAGES } from '../review-rules.ts';
import {
  SHARE_LINK_EXPIRY_DAYS,
  SHARE_MESSAGES,
  SHARE_PASSWORD_MAX,
  isShareLinkExpiry,
  validateSharePassword,
  type ShareLinkExpiryDays,
} from '../share-links.ts';
import { CommentListStruct, CommentStruct, CreateCommentBodyStruct, VersionStruct } from './review.ts';
import { defineOperation } from './define.ts';
import { MAX_ID, textSchema, wholeNumberSchema } from './fields.ts';

/** Guest review links (issue 13): the owner's calls under the project, the guest's under the link's token. */

const VersionNumber = describedAs(
  define<number>(
    'version',
    (value) => (Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= MAX_ID) || 'Must be a version number: a whole number from 1.',
  ),
  wholeNumberSchema(1, MAX_ID),
);
const ExpiryDays = describedAs(
  define<ShareLinkExpiryDays>('expiresInDays', (value) => isShareLinkExpiry(value) || SHARE_MESSAGES.expiryInvalid),
  { type: 'integer', enum: [...SHARE_LINK_EXPIRY_DAYS] },
);
/** Empty (no password), or SHARE_PASSWORD_MIN to SHARE_PASSWORD_MAX characters: the document says only the maximum. */
const SharePassword = describedAs(
  define<string>('password', (value) => {
    if (typeof value !== 'string') return 'Must be text.';
    return validateSharePassword(value) ?? true;
  }),
  textSchema(undefined, SHARE_PASSWORD_MAX),
);

/** POST projects/{id}/share-links (the owner). */
export const CreateShareLinkBodyStruct = object({
  version: VersionNumber,
  expiresInDays: ExpiryDays,
  password: optional(nullable(SharePassword)),
});
export type CreateShareLinkBody = Infer<typeof CreateShareLinkBodyStruct>;

export const ShareLinkStruct = object({
  id: number(),
  version: number(),
  /** The page to send the guest: `{origin}/review/{token}`. */
  url: string(),
  state: enums(['active', 'expired', 'revoked'] as const),
  expiresAt: nullable(string()),
  revokedAt: nullable(string()),
  hasPassword: boolean(),
  createdAt: string(),
  createdByName: nullable(string()),
  lastUsedAt: nullable(string()),
  /** Comments guests wrote through it (not deleted). */
  guestComments: number(),
});
export type ShareLinkView = Infer<typeof ShareLinkStruct>;
export const ShareLinkListStruct = object({ links: array(ShareLinkStruct) });

/**
 * GET share/{token}: what the guest page shows. A protected link tells only that it is protected
 * until its password was given (the project's name is the organization's business).
 */
export const GuestReviewStruct = object({
  requiresPassword: boolean(),
  expiresAt: nullable(string()),
  review: nullable(
    object({
      projectName: string(),
      organizationName: string(),
      /** Comments are accepted (the project is not approved or archived). */
      open: boolean(),
      version: VersionStruct,
    }),
  ),
});
export type GuestReview = Infer<typeof GuestReviewStruct>;

/** POST share/{token}/access: the password, once; the answer's pass goes with the guest's next calls. */
export const ShareAccessBodyStruct = object({
  password: describedAs(
    define<string>('password', (value) => (typeof value === 'string' && value.length > 0 && value.length <= 1024) || SHARE_MESSAGES.passwordRequired),
    textSchema(1, 1024),
  ),
});
export const SharePassStruct = object({ pass: string(), expiresIn: number() });
/** The header that carries a pass (EventSource cannot: the stream takes it as `?pass=`). */
export const SHARE_PASS_HEADER = 'x-share-pass';

/** POST share/{token}/comments: a guest's comment on the link's version, signed with the name they type. */
export const GuestCommentBodyStruct = object({
  ...omit(CreateCommentBodyStruct, ['version']).schema,
  guestName: describedAs(
    define<string>('guestName', (value) => (typeof value === 'string' && value.trim().length > 0) || REVIEW_MESSAGES.guestNameRequired),
    textSchema(1),
  ),
});
export type GuestCommentBody = Infer<typeof GuestCommentBodyStruct>;

export const GuestStreamQueryStruct = object({ pass: optional(string()) });

/** The owner's calls, under the project. */
export const listShareLinks = defineOperation({ method: 'GET', path: '/projects/{id}/share-links', access: 'customer', answer: ShareLinkListStruct });
export const createShareLink = defineOperation({
  method: 'POST',
  path: '/projects/{id}/share-links',
  access: 'owner',
  body: CreateShareLinkBodyStruct,
  answer: ShareLinkStruct,
  status: 201,
});
export const revokeShareLink = defineOperation({ method: 'DELETE', path: '/projects/{id}/share-links/{linkId}', access: 'owner' });

/** The guest's calls: public to the auth plugin, the token (and a protected link's pass) is the credential, checked by the service. */
export const getGuestReview = defineOperation({ method: 'GET', path: '/share/{token}', access: 'public', answer: GuestReviewStruct });
export const unlockShare = defineOperation({
  method: 'POST',
  path: '/share/{token}/access',
  access: 'public',
  body: ShareAccessBodyStruct,
  answer: SharePassStruct,
});
export const listGuestComments = defineOperation({ method: 'GET', path: '/share/{token}/comments', access: 'public', answer: CommentListStruct });
export const createGuestComment = defineOperation({
  method: 'POST',
  path: '/share/{token}/comments',
  access: 'public',
  body: GuestCommentBodyStruct,
  answer: CommentStruct,
  status: 201,
});
/** Server-Sent Events, opened by EventSource (no header: a pass goes as `?pass=`). */
export const guestEvents = defineOperation({ method: 'GET', path: '/share/{token}/events', access: 'public', query: GuestStreamQueryStruct, status: 200 });
