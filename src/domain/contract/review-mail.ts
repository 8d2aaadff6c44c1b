import { boolean, object, optional, string, type Infer } from 'superstruct';

/** Which review e-mails (issue 13) the signed-in user gets; src/domain/review-mail.ts names the kinds. */
export const ReviewMailPreferencesStruct = object({ ready: boolean(), reminder: boolean(), changes: boolean(), digest: boolean() });
export type ReviewMailPreferencesDto = Infer<typeof ReviewMailPreferencesStruct>;

/** PATCH: only the kinds to change. */
export const ReviewMailPreferencesBodyStruct = object({ ready: optional(boolean()), reminder: optional(boolean()), changes: optional(boolean()), digest: optional(boolean()) });

/** The unsubscribe link's query: its signed token is the credential. */
export const UnsubscribeQueryStruct = object({ token: string() });
