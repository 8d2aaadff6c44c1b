import type { Project } from '../../src/domain/contract/projects.ts';
import { STAFF_ONLY_FIELDS, VERSION_FIELDS, customerSeesVersion } from '../../src/domain/customer-view.ts';
import { finalPreviewState } from '../../src/domain/media.ts';
import { reviewDaysLeft } from '../../src/domain/review-window.ts';
import { isCustomerRole } from '../../src/domain/roles.ts';
import type { AuthContext } from '../plugins/auth.ts';
import type { ProjectDetails } from '../repositories/projects.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The project as a portal reads it (C§3, A§3). `audience` 'customer' leaves out what a
 * customer may not see (src/domain/customer-view.ts); without it, the staff view.
 */
export function toProject(row: ProjectDetails, audience: 'customer' | 'staff' = 'staff'): Project {
  const project = fullProject(row);
  if (audience === 'staff') return project;
  for (const field of STAFF_ONLY_FIELDS) project[field] = null;
  if (!customerSeesVersion(row.status, row.versionReleased)) {
    for (const field of VERSION_FIELDS) project[field] = null;
    project.finalPreviewState = 'none';
  }
  return project;
}

/** The project as `auth` may read it: an impersonating admin reads it as the customer does. */
export function projectFor(auth: AuthContext, row: ProjectDetails): Project {
  return toProject(row, isCustomerRole(auth.user.role) ? 'customer' : 'staff');
}

function fullProject(row: ProjectDetails): Project {
  return {
    id: row.id,
    name: row.name,
    brief: row.brief,
    audience: row.audience,
    goal: row.goal,
    finalVideoLength: row.finalVideoLength,
    status: { name: row.status },
    organization: { id: row.organizationId, name: row.organizationName },
    user: { id: row.userId, firstName: row.userFirstName, lastName: row.userLastName, profilePictureUrl: row.userPicture },
    editor: row.editorId
      ? { id: row.editorId, firstName: row.editorFirstName ?? '', lastName: row.editorLastName ?? '', profilePictureUrl: row.editorPicture ?? null }
      : null,
    pausedAt: iso(row.pausedAt),
    totalPausedMinutes: row.totalPausedMinutes,
    latestSubmittedAt: iso(row.latestSubmittedAt),
    reviewStartedAt: iso(row.reviewStartedAt),
    createdAt: row.createdAt.toISOString(),
    reviewPeriod: row.reviewPeriod,
    reviewDaysLeft: reviewDaysLeft(row),
    noReviews: row.noReviews,
    assetsLink: row.assetsLink,
    reviewLink: row.reviewLink,
    collaborationLink: row.collaborationLink,
    editorAssetsLink: row.editorAssetsLink,
    hdUrl: row.hdUrl,
    lowResUrl: row.lowResUrl,
    finalVideoThumbnail: row.finalVideoThumbnail,
    finalVideoPreview: row.finalVideoPreview,
    finalVideoPath: row.finalVideoPath,
    finalVideoSize: row.finalVideoSize,
    finalPreviewState: finalPreviewState(row.finalVideoPath, row.finalPreviewJob),
    hasHdArchive: Number(row.hasHdArchive),
    hasLowResArchive: Number(row.hasLowResArchive),
    deletedAt: iso(row.deletedAt),
  };
}
