import { CommentListStruct, CommentStruct, type UpdateCommentBody } from '@/domain/contract/review.ts';
import { GuestReviewStruct, SHARE_PASS_HEADER, SharePassStruct } from '@/domain/contract/share-links.ts';
import { callAsGuest } from '@/lib/api-client.ts';
import type { NewCommentBody } from '@/shared/review/api/create-comment.ts';

/** A guest's calls under a share link's token (docs/api.md, "Guest review"); `pass` opens a protected link. */
const base = (token: string) => `/share/${encodeURIComponent(token)}`;
const passHeader = (pass: string | null): Record<string, string> => (pass ? { [SHARE_PASS_HEADER]: pass } : {});

export const getGuestReview = (token: string, pass: string | null) => callAsGuest('GET', base(token), { headers: passHeader(pass), struct: GuestReviewStruct });

export const unlockShare = (token: string, password: string) => callAsGuest('POST', `${base(token)}/access`, { body: { password }, struct: SharePassStruct });

export const listGuestComments = (token: string, pass: string | null) => callAsGuest('GET', `${base(token)}/comments`, { headers: passHeader(pass), struct: CommentListStruct });

export const createGuestComment = (token: string, pass: string | null, body: Omit<NewCommentBody, 'version'> & { guestName: string }) =>
  callAsGuest('POST', `${base(token)}/comments`, { headers: passHeader(pass), body, struct: CommentStruct });

/** Guests cannot change comments (src/domain/review-rules.ts): the panel never offers it; a call would be refused. */
export function refusedForGuests(_id: number, _body?: UpdateCommentBody): never {
  throw new Error('Guests cannot change or delete comments.');
}

export const guestStreamUrl = (token: string, pass: string | null) => `/api/v1${base(token)}/events${pass ? `?pass=${encodeURIComponent(pass)}` : ''}`;
