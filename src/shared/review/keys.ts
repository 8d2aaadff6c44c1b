/**
 * Query keys of the frame-accurate review, under the project's own key: invalidating
 * `queryKeys.project(id)` (a transition, a live update) refreshes the versions and comments too.
 */
export const reviewKeys = {
  /** The project's versions (GET projects/{id}/versions). */
  versions: (projectId: number) => ['project', projectId, 'versions'] as const,
  /** Every version's comments of the project (prefix of `comments`). */
  allComments: (projectId: number) => ['project', projectId, 'comments'] as const,
  /** One version's threads (GET projects/{id}/comments?version=N). */
  comments: (projectId: number, version: number) => ['project', projectId, 'comments', version] as const,
};
