import type { Version } from '@/domain/contract/review.ts';
import { readGuestName } from '@/shared/review/guest-name.ts';
import type { ReviewSource } from '@/shared/review/review-source.ts';
import { createGuestComment, listGuestComments, refusedForGuests } from './api/guest-calls.ts';

/** Query keys of a guest's page: under the link, so a live event refreshes all of it at once. */
export const guestKeys = {
  all: (token: string) => ['share', token] as const,
  page: (token: string, pass: string | null) => ['share', token, 'page', pass] as const,
};

/**
 * The review of a share link's one version: its versions list is that version (already read with
 * the page), comments go through the link, signed with the name the guest typed.
 */
export function guestSource(token: string, pass: string | null, version: Version): ReviewSource {
  return {
    versionsKey: [...guestKeys.all(token), 'versions', version.number],
    commentsKey: (number) => [...guestKeys.all(token), 'comments', number],
    listVersions: () => Promise.resolve([version]),
    listComments: () => listGuestComments(token, pass),
    createComment: ({ version: _version, ...body }) => createGuestComment(token, pass, { ...body, guestName: readGuestName().trim() }),
    updateComment: refusedForGuests,
    deleteComment: refusedForGuests,
    guest: true,
  };
}
