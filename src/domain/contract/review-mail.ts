import { boolean, object, string, type Infer } from 'superstruct';
import { optional } from './schema-notes.ts';
import { defineOperation } from './define.ts';

/** Which review e-mails (issue 13) the signed-in user gets; src/domain/review-mail.ts names the kinds. */
export const ReviewMailPreferencesStruct = object({ ready: boolean(), reminder: boolean(), changes: boolean(), digest: boolean() });
export type ReviewMailPreferencesDto = Infer<typeof ReviewMailPreferencesStruct>;

/** PATCH: only the kinds to change. */
export const ReviewMailPreferencesBodyStruct = object({
  ready: optional(boolean()),
  reminder: optional(boolean()),
  changes: optional(boolean()),
  digest: optional(boolean()),
});

/** The unsubscribe link's query: its signed token is the credential. */
export const UnsubscribeQueryStruct = object({ token: string() });

export const getReviewMail = defineOperation({ method: 'GET', path: '/me/review-mail', access: 'signed-in', answer: ReviewMailPreferencesStruct });
export const updateReviewMail = defineOperation({
  method: 'PATCH',
  path: '/me/review-mail',
  access: 'signed-in',
  body: ReviewMailPreferencesBodyStruct,
  answer: ReviewMailPreferencesStruct,
});
/** Opened from the mail: the signed token is the credential. Answers an HTML page. */
export const unsubscribeFromLink = defineOperation({ method: 'GET', path: '/review-mail/unsubscribe', access: 'public', query: UnsubscribeQueryStruct });
/** RFC 8058 one-click unsubscribe (List-Unsubscribe-Post): mail clients POST to the same link. */
export const unsubscribeOneClick = defineOperation({ method: 'POST', path: '/review-mail/unsubscribe', access: 'public', query: UnsubscribeQueryStruct });
