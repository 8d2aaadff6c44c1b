import type { Comment, CommentList, UpdateCommentBody, Version } from '@/domain/contract/review.ts';
import { createComment, type NewCommentBody } from './api/create-comment.ts';
import { deleteComment } from './api/delete-comment.ts';
import { listComments } from './api/list-comments.ts';
import { listVersions } from './api/list-versions.ts';
import { updateComment } from './api/update-comment.ts';
import { reviewKeys } from './keys.ts';

/**
 * Where a review's versions and comments come from and go to: the project's API for people
 * who are signed in, a share link's for guests (src/features/guest-review). The player, the
 * timeline and the panel work the same on either.
 */
export interface ReviewSource {
  /** Query keys of the versions and of one version's threads. */
  readonly versionsKey: readonly unknown[];
  commentsKey(version: number): readonly unknown[];
  listVersions(): Promise<Version[]>;
  listComments(version: number): Promise<CommentList>;
  createComment(body: NewCommentBody): Promise<Comment>;
  updateComment(id: number, body: UpdateCommentBody): Promise<Comment>;
  deleteComment(id: number): Promise<void>;
  /** A guest signs each comment with a name they type (the composer asks for it). */
  readonly guest: boolean;
}

/** A signed-in person's review of a project. */
export function memberSource(projectId: number): ReviewSource {
  return {
    versionsKey: reviewKeys.versions(projectId),
    commentsKey: (version) => reviewKeys.comments(projectId, version),
    listVersions: () => listVersions(projectId),
    listComments: (version) => listComments(projectId, version),
    createComment: (body) => createComment(projectId, body),
    updateComment: (id, body) => updateComment(projectId, id, body),
    deleteComment: (id) => deleteComment(projectId, id),
    guest: false,
  };
}
