import { operationPath } from '@/domain/contract/define.ts';
import type { UpdateCommentBody } from '@/domain/contract/review.ts';
import * as operations from '@/domain/contract/share-links.ts';
import { SHARE_PASS_HEADER, type GuestCommentBody } from '@/domain/contract/share-links.ts';
import { callAsGuest } from '@/lib/api-client.ts';
import type { NewCommentBody } from '@/shared/review/api/create-comment.ts';

/** A guest's calls under a share link's token (docs/api.md, "Guest review"); `pass` opens a protected link. */
const passHeader = (pass: string | null): Record<string, string> => (pass ? { [SHARE_PASS_HEADER]: pass } : {});

export const getGuestReview = (token: string, pass: string | null) => callAsGuest(operations.getGuestReview, { params: { token } }, passHeader(pass));

export const unlockShare = (token: string, password: string) => callAsGuest(operations.unlockShare, { params: { token }, body: { password } });

export const listGuestComments = (token: string, pass: string | null) => callAsGuest(operations.listGuestComments, { params: { token } }, passHeader(pass));

export const createGuestComment = (token: string, pass: string | null, body: Omit<NewCommentBody, 'version'> & { guestName: string }) =>
  // As for members (create-comment.ts): the drawing is optional, though its check types it `unknown`.
  callAsGuest(operations.createGuestComment, { params: { token }, body: body as GuestCommentBody }, passHeader(pass));

/** Guests cannot change comments (src/domain/review-rules.ts): the panel never offers it; a call would be refused. */
export function refusedForGuests(_id: number, _body?: UpdateCommentBody): never {
  throw new Error('Guests cannot change or delete comments.');
}

export const guestStreamUrl = (token: string, pass: string | null) =>
  `/api/v1${operationPath(operations.guestEvents.path, { token })}${pass ? `?pass=${encodeURIComponent(pass)}` : ''}`;
