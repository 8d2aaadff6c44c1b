import { array, enums, number, object, string, type Infer } from 'superstruct';
import { nullable, optional, size } from './schema-notes.ts';
import { FINAL_VIDEO_LENGTHS } from '../constants.ts';
import { FINAL_PREVIEW_STATES } from '../media.ts';
import { PROJECT_STATUSES } from '../project-status.ts';
import { FIELD_MESSAGES, LIMITS, audienceRule, firstError, projectLinkRule, projectNameRule, requiredRule } from '../validation.ts';
import { defineOperation } from './define.ts';
import { Id, LINK_SCHEMA, queryBool, queryInt, ruleField, textSchema } from './fields.ts';
import { IdResponseStruct } from './organizations.ts';

const lengthRule = (value: string) =>
  firstError(value, requiredRule(), (v) => ((FINAL_VIDEO_LENGTHS as readonly string[]).includes(v) ? undefined : FIELD_MESSAGES.lengthInvalid));

/** The brief fields of C§5, each with its rule. */
export const BriefFields = {
  name: ruleField('name', projectNameRule, textSchema(1, LIMITS.projectName)),
  audience: ruleField('audience', audienceRule, textSchema(1, LIMITS.audience)),
  goal: ruleField('goal', requiredRule(), textSchema(1)),
  finalVideoLength: ruleField('finalVideoLength', lengthRule, { type: 'string', enum: [...FINAL_VIDEO_LENGTHS] }),
  brief: ruleField('brief', requiredRule(), textSchema(1)),
};

export const CreateProjectBodyStruct = object(BriefFields);
export type CreateProjectBody = Infer<typeof CreateProjectBodyStruct>;

/** PATCH projects/{id}: any brief field; staff may also set one link field (null clears it). */
export const UpdateProjectBodyStruct = object({
  name: optional(BriefFields.name),
  audience: optional(BriefFields.audience),
  goal: optional(BriefFields.goal),
  finalVideoLength: optional(BriefFields.finalVideoLength),
  brief: optional(BriefFields.brief),
  assetsLink: optional(nullable(ruleField('assetsLink', projectLinkRule('assetsLink'), LINK_SCHEMA))),
  reviewLink: optional(nullable(ruleField('reviewLink', projectLinkRule('reviewLink'), LINK_SCHEMA))),
  collaborationLink: optional(nullable(ruleField('collaborationLink', projectLinkRule('collaborationLink'), LINK_SCHEMA))),
  editorAssetsLink: optional(nullable(ruleField('editorAssetsLink', projectLinkRule('editorAssetsLink'), LINK_SCHEMA))),
});
export type UpdateProjectBody = Infer<typeof UpdateProjectBodyStruct>;

export const LINK_FIELDS = ['assetsLink', 'reviewLink', 'collaborationLink', 'editorAssetsLink'] as const;
export type LinkField = (typeof LINK_FIELDS)[number];

const PersonStruct = object({ id: number(), firstName: string(), lastName: string(), profilePictureUrl: nullable(string()) });

export const ProjectStruct = object({
  id: number(),
  name: string(),
  brief: string(),
  audience: string(),
  goal: string(),
  finalVideoLength: string(),
  status: object({ name: enums(PROJECT_STATUSES) }),
  organization: object({ id: number(), name: string() }),
  user: PersonStruct,
  editor: nullable(PersonStruct),
  pausedAt: nullable(string()),
  totalPausedMinutes: number(),
  latestSubmittedAt: nullable(string()),
  reviewStartedAt: nullable(string()),
  createdAt: string(),
  reviewPeriod: number(),
  /** Review time left in whole days; 0 means no timer. */
  reviewDaysLeft: number(),
  noReviews: number(),
  assetsLink: nullable(string()),
  reviewLink: nullable(string()),
  collaborationLink: nullable(string()),
  editorAssetsLink: nullable(string()),
  hdUrl: nullable(string()),
  lowResUrl: nullable(string()),
  finalVideoThumbnail: nullable(string()),
  finalVideoPreview: nullable(string()),
  finalVideoPath: nullable(string()),
  finalVideoSize: nullable(number()),
  /** Issue 36: the final video's preview as the media pipeline reports it; send to review needs 'ready'. */
  finalPreviewState: enums(FINAL_PREVIEW_STATES),
  hasHdArchive: number(),
  hasLowResArchive: number(),
  deletedAt: nullable(string()),
});
export type Project = Infer<typeof ProjectStruct>;

/** `total`: how many projects match the query in all (the page is `start`…`start + limit`). */
export const ProjectListStruct = object({ data: object({ projects: array(ProjectStruct), total: optional(number()) }) });

/** Pages of GET organizations/{id}/projects: 100 by default, 200 at most (issue 9: it was unbounded). */
export const PROJECT_PAGE_DEFAULT = 100;
export const PROJECT_PAGE_MAX = 200;
export const BOARD_SECTION_KEYS = ['needsReview', 'editing', 'assembly'] as const;
export type BoardSectionKey = (typeof BOARD_SECTION_KEYS)[number];
export const ProjectListQueryStruct = object({
  type: optional(enums(['Archived', 'Approved'])),
  /** One section of the customer board (C§2), paged on its own. */
  section: optional(enums(BOARD_SECTION_KEYS)),
  start: optional(queryInt(0)),
  limit: optional(queryInt(1, PROJECT_PAGE_MAX)),
});

/** Staff dashboard: GET projects. */
export const DASHBOARD_SORTS = ['timer', 'name', 'organization', 'status', 'createdAt', 'version'] as const;
export type DashboardSort = (typeof DASHBOARD_SORTS)[number];
export const DashboardQueryStruct = object({
  start: optional(queryInt(0)),
  limit: optional(queryInt(1, 200)),
  active: optional(queryBool()),
  archived: optional(queryBool()),
  hidden: optional(queryBool()),
  sort: optional(enums(DASHBOARD_SORTS)),
  order: optional(enums(['asc', 'desc'])),
  /** The `nextCursor` of the page before (keyset paging); instead of `start`. */
  after: optional(size(string(), 1, 2000)),
});
export const DashboardRowStruct = object({
  id: number(),
  name: string(),
  status: object({ name: enums(PROJECT_STATUSES) }),
  organization: object({ id: number(), name: string() }),
  editor: nullable(PersonStruct),
  createdAt: string(),
  noReviews: number(),
  reviewLink: nullable(string()),
  latestSubmittedAt: nullable(string()),
  pausedAt: nullable(string()),
  totalPausedMinutes: number(),
  /** Deleted Projects tab: the status Restore brings the project back to (issue 12). */
  restoresTo: optional(enums(PROJECT_STATUSES)),
});
export type DashboardRow = Infer<typeof DashboardRowStruct>;
/** `nextCursor` continues after this page (null on the last one). */
export const DashboardPageStruct = object({ data: object({ projects: array(DashboardRowStruct), nextCursor: optional(nullable(string())) }) });

export const AssignEditorBodyStruct = object({ editorId: Id });
export const ReviewPeriodBodyStruct = object({ reviewPeriod: number() });

/** The staff dashboard (its route answers through a compiled serializer of DashboardPageStruct). */
export const listDashboard = defineOperation({ method: 'GET', path: '/projects', access: 'staff', query: DashboardQueryStruct, answer: DashboardPageStruct });
export const listOrganizationProjects = defineOperation({
  method: 'GET',
  path: '/organizations/{id}/projects',
  access: 'signed-in',
  organizationParam: 'id',
  query: ProjectListQueryStruct,
  answer: ProjectListStruct,
});
export const createProject = defineOperation({
  method: 'POST',
  path: '/organizations/{id}/projects',
  access: 'customer',
  organizationParam: 'id',
  body: CreateProjectBodyStruct,
  answer: IdResponseStruct,
  status: 201,
});
export const getProject = defineOperation({ method: 'GET', path: '/projects/{id}', access: 'signed-in', answer: ProjectStruct });
export const updateProject = defineOperation({
  method: 'PATCH',
  path: '/projects/{id}',
  access: 'signed-in',
  body: UpdateProjectBodyStruct,
  answer: ProjectStruct,
});
export const deleteProject = defineOperation({ method: 'DELETE', path: '/projects/{id}', access: 'signed-in' });

/** The staff calls that are one transition each (A§7); the role and status rules are the state machine's (src/domain/project-rules.ts). */
export const approveProject = defineOperation({ method: 'POST', path: '/projects/{id}/approve', access: 'signed-in', answer: ProjectStruct });
export const archiveProject = defineOperation({ method: 'POST', path: '/projects/{id}/archive', access: 'signed-in', answer: ProjectStruct });
export const hideProject = defineOperation({ method: 'POST', path: '/projects/{id}/hide', access: 'signed-in', answer: ProjectStruct });
export const restoreProject = defineOperation({ method: 'POST', path: '/projects/{id}/restore', access: 'signed-in', answer: ProjectStruct });
export const pauseProject = defineOperation({ method: 'POST', path: '/projects/{id}/pause', access: 'signed-in', answer: ProjectStruct });
export const resumeProject = defineOperation({ method: 'POST', path: '/projects/{id}/resume', access: 'signed-in', answer: ProjectStruct });
export const restoreProjectToReview = defineOperation({ method: 'POST', path: '/projects/{id}/restore_to_review', access: 'signed-in', answer: ProjectStruct });

/** One call, three meanings (C§7, A§7): a customer sends to editing or asks for a revision; staff send the edit to review. */
export const submitProject = defineOperation({ method: 'POST', path: '/projects/{id}/submit', access: 'signed-in', answer: ProjectStruct });
export const duplicateProject = defineOperation({
  method: 'POST',
  path: '/projects/{id}/duplicate',
  access: 'signed-in',
  answer: IdResponseStruct,
  status: 201,
});
export const assignEditor = defineOperation({
  method: 'POST',
  path: '/projects/{id}/assign-editor',
  access: 'signed-in',
  body: AssignEditorBodyStruct,
  answer: ProjectStruct,
});
export const unassignEditor = defineOperation({ method: 'POST', path: '/projects/{id}/unassign-editor', access: 'signed-in', answer: ProjectStruct });
export const setReviewPeriod = defineOperation({
  method: 'PUT',
  path: '/projects/{id}/review_period',
  access: 'signed-in',
  body: ReviewPeriodBodyStruct,
  answer: ProjectStruct,
});
