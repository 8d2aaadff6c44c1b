import type { ProjectStatus } from './project-status.ts';

/**
 * What a customer may see of a project's edit (issue 9). A version exists for the customer
 * only once staff send it to review (`versionReleased`, set by send-to-review and cleared when
 * a revision round starts): before that the final video, its downloads and the review link are
 * the editors' work in progress. The status alone cannot tell: hide then restore leads any
 * project to ARCHIVED. Editors' internal links never reach them.
 */
export const VERSION_VISIBLE_STATUSES: readonly ProjectStatus[] = ['IN_REVIEW', 'APPROVED', 'ARCHIVED'];

export function customerSeesVersion(status: ProjectStatus, versionReleased: boolean): boolean {
  return versionReleased && VERSION_VISIBLE_STATUSES.includes(status);
}

/** Fields of a project answer that belong to the version under edit. */
export const VERSION_FIELDS = ['reviewLink', 'hdUrl', 'lowResUrl', 'finalVideoThumbnail', 'finalVideoPreview', 'finalVideoPath', 'finalVideoSize'] as const;

/** Fields of a project answer only staff see, whatever the status. */
export const STAFF_ONLY_FIELDS = ['editorAssetsLink'] as const;
