import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { ProjectStatus } from '../../src/domain/project-status.ts';
import type { RoleName } from '../../src/domain/roles.ts';
import type { CommentAuthorRole } from '../../src/domain/share-links.ts';
import type { BillingTables } from '../billing/schema.ts';

/** Columns as the app sees them (CamelCasePlugin maps them to snake_case in SQL). */
type CreatedAt = ColumnType<Date, Date | undefined, never>;

export interface OrganizationsTable {
  id: Generated<number>;
  name: string;
  /** The name's sort key (src/domain/collation.ts), set with it by server/db/sort-keys.ts (migration 0021). */
  nameSortKey: string | null;
  /** Onboarding: 1 in progress, 2 completed. */
  statusId: Generated<number>;
  state: Generated<string>;
  /** Storage quota in TB. */
  storageTb: Generated<number>;
  /** Bytes in use. */
  usedSpace: Generated<number>;
  assetsLink: string | null;
  trackingCode: string | null;
  projectReviewPeriod: Generated<number>;
  renewableAt: Date | null;
  isCancelled: Generated<boolean>;
  /** Onboarding kit (migration 0003): ordered or not, its type and order date (YYYY-MM-DD). */
  kitOrdered: Generated<boolean>;
  kitType: string | null;
  kitOrderedAt: string | null;
  createdAt: CreatedAt;
  deletedAt: Date | null;
}

export interface CreditsTable {
  organizationId: number;
  startDate: string | null;
  endDate: string | null;
  activeCredits: Generated<number>;
  usedCredits: Generated<number>;
  creditsPerInterval: Generated<number>;
  intervalMonths: Generated<number>;
  renewable: Generated<boolean>;
  renewDate: string | null;
}

export interface UsersTable {
  id: Generated<number>;
  email: string;
  /** Null until an invited user sets a password. */
  passwordHash: string | null;
  firstName: string;
  lastName: string;
  phone: string | null;
  /** Sort keys of "first last", the e-mail and the phone (src/domain/collation.ts), set with them by server/db/sort-keys.ts (migration 0021). */
  nameSortKey: string | null;
  emailSortKey: string | null;
  phoneSortKey: string | null;
  role: RoleName;
  organizationId: number | null;
  isEnabled: Generated<boolean>;
  profilePictureUrl: string | null;
  /** Editor drive link. */
  assetsPath: string | null;
  /** Raised to end every session of the user (migration 0007); tokens carry the version they were signed with. */
  sessionVersion: Generated<number>;
  /** Which review e-mails the user gets (migration 0014, issue 13); all on by default. */
  reviewMailReady: Generated<boolean>;
  reviewMailReminder: Generated<boolean>;
  reviewMailChanges: Generated<boolean>;
  reviewMailDigest: Generated<boolean>;
  createdAt: CreatedAt;
  deletedAt: Date | null;
}

export interface AccessCodesTable {
  id: Generated<number>;
  userId: number;
  purpose: 'recovery' | 'invite';
  codeHash: string;
  expiresAt: Date;
  usedAt: Date | null;
  createdAt: CreatedAt;
}

export interface ProjectsTable {
  id: Generated<number>;
  organizationId: number;
  userId: number;
  editorId: number | null;
  name: string;
  /** The name's sort key (src/domain/collation.ts), set with it by server/db/sort-keys.ts (migration 0021). */
  nameSortKey: string | null;
  brief: Generated<string>;
  audience: Generated<string>;
  goal: Generated<string>;
  finalVideoLength: Generated<string>;
  status: Generated<ProjectStatus>;
  pausedAt: Date | null;
  totalPausedMinutes: Generated<number>;
  latestSubmittedAt: Date | null;
  reviewStartedAt: Date | null;
  reviewPeriod: Generated<number>;
  noReviews: Generated<number>;
  reviewLink: string | null;
  collaborationLink: string | null;
  assetsLink: string | null;
  editorAssetsLink: string | null;
  hdUrl: string | null;
  lowResUrl: string | null;
  finalVideoThumbnail: string | null;
  finalVideoPreview: string | null;
  finalVideoPath: string | null;
  finalVideoSize: number | null;
  /** Staff sent this version to review: only then does the customer see it (migration 0008). */
  versionReleased: Generated<boolean>;
  /** Business-clock minute at which a running timer reaches 00:00 (null when not running). */
  slaDeadline: ColumnType<number | null, number | null | undefined, number | null>;
  /** Minutes a frozen timer shows. */
  slaFrozen: Generated<number>;
  /** The status a staff-deleted (HIDDEN) project had before; Restore returns it there (migration 0011). */
  statusBeforeHidden: ProjectStatus | null;
  createdAt: CreatedAt;
  deletedAt: Date | null;
}

export interface AssetsTable {
  id: Generated<number>;
  projectId: number;
  name: string;
  size: number;
  type: 'ASSET' | 'INTERVIEW_CLIP' | 'BROLL_CLIP';
  path: string;
  previewPath: string | null;
  /** CRC-32 of the object at `path`, once the media worker has read it (migration 0016). */
  crc32: number | null;
  /** Issue 35: where the file sat in a folder the customer dropped, cleaned ("CARD/DCIM/100MSDCF"), or null (migration 0024). */
  folder: string | null;
  /** Issue 35: CRC-32 of the file as the customer's device read it, or null (migration 0025). Equal to `crc32`: verified. */
  sentCrc32: number | null;
  /** Issue 35: the stored object's fingerprint (src/domain/fingerprint.ts), read with its CRC-32, or null (migration 0026). */
  fingerprint: string | null;
  createdAt: CreatedAt;
  deletedAt: Date | null;
}

/** Temporary credentials of the embedded object store (migration 0004). */
export interface StorageCredentialsTable {
  accessKeyId: string;
  userId: number;
  projectId: number;
  allowedPrefix: string;
  expiresAt: Date;
  /** The session that asked for them (migration 0008): the credentials end with it. */
  sessionVersion: Generated<number>;
  impersonatorId: number | null;
  impersonatorSessionVersion: number | null;
  createdAt: CreatedAt;
}

/** Object keys handed out by check-name and not yet registered (migration 0004). */
export interface UploadReservationsTable {
  key: string;
  projectId: number;
  userId: number;
  expiresAt: Date;
  createdAt: CreatedAt;
}

/** Media work queue (migration 0005): one row per job; see server/media/queue.ts. */
export interface MediaJobsTable {
  id: Generated<number>;
  kind: string;
  projectId: number | null;
  assetId: number | null;
  /** The object the job reads. */
  sourceKey: string | null;
  /** The object (or folder, for HLS) the job writes. */
  outputKey: string | null;
  payload: ColumnType<Record<string, unknown>, string | undefined, string>;
  status: Generated<'queued' | 'running' | 'done' | 'failed' | 'cancelled'>;
  priority: Generated<number>;
  attempts: Generated<number>;
  maxAttempts: Generated<number>;
  runAt: Generated<Date>;
  lockedBy: string | null;
  lockedUntil: Date | null;
  lastError: string | null;
  createdAt: CreatedAt;
  updatedAt: Generated<Date>;
  finishedAt: Date | null;
}

/** A Log In As session (migrations 0001, 0018): who, as whom, from where, until when. */
export interface ImpersonationsTable {
  id: Generated<number>;
  adminId: number;
  organizationId: number;
  /** The customer user signed in as (the owner); null on rows older than migration 0018. */
  customerUserId: number | null;
  clientAddress: string | null;
  /** When the session's token expires (each refresh moves it); null on older rows. */
  expiresAt: Date | null;
  /** When the staff member ended it; null while it lasts or once it ended by expiry. */
  endedAt: Date | null;
  createdAt: CreatedAt;
}

/** A cut of the final video delivered for review (migration 0013). */
export interface ProjectVersionsTable {
  id: Generated<number>;
  projectId: number;
  /** 1, 2, … per project: the review round the cut is (or will be) shown in. */
  number: number;
  videoPath: string;
  videoSize: number | null;
  previewPath: string | null;
  /** The exact rate ffprobe reported; null until the media pipeline probed the video. */
  frameRateNum: number | null;
  frameRateDen: number | null;
  durationFrames: number | null;
  width: number | null;
  height: number | null;
  /** When staff sent this cut to review: customers see released versions only. */
  releasedAt: Date | null;
  createdAt: CreatedAt;
  updatedAt: Generated<Date>;
}

/** A time-coded comment on a version (migration 0013); replies carry their thread's frame. */
export interface ReviewCommentsTable {
  id: Generated<number>;
  projectId: number;
  versionId: number;
  parentId: number | null;
  authorUserId: number | null;
  authorName: string;
  authorRole: CommentAuthorRole;
  /** The share link a guest's comment came through (migration 0015); null for members'. */
  shareLinkId: Generated<number | null>;
  frame: number;
  endFrame: number | null;
  text: string;
  /** A drawing checked by src/domain/drawing.ts (JSON text on the way in). */
  drawing: ColumnType<unknown, string | null | undefined, string | null>;
  resolvedAt: Date | null;
  resolvedBy: number | null;
  createdAt: CreatedAt;
  updatedAt: Generated<Date>;
  deletedAt: Date | null;
}

export interface Database extends BillingTables {
  organizations: OrganizationsTable;
  credits: CreditsTable;
  users: UsersTable;
  accessCodes: AccessCodesTable;
  projects: ProjectsTable;
  assets: AssetsTable;
  impersonations: ImpersonationsTable;
  storageCredentials: StorageCredentialsTable;
  uploadReservations: UploadReservationsTable;
  mediaJobs: MediaJobsTable;
  projectVersions: ProjectVersionsTable;
  reviewComments: ReviewCommentsTable;
  reviewMailLedger: ReviewMailLedgerTable;
  reviewShareLinks: ReviewShareLinksTable;
  holidayEdits: HolidayEditsTable;
}

/** A superadmin's edit of the holiday calendar (migration 0020): a date added, or a default holiday removed. */
export interface HolidayEditsTable {
  /** `YYYY-MM-DD` in the business zone (src/domain/holiday-calendar.ts). */
  date: string;
  name: string;
  kind: 'added' | 'removed';
  editedBy: number | null;
  createdAt: CreatedAt;
}

/** A guest link to one version of a project (migration 0015); its token is derived, never stored. */
export interface ReviewShareLinksTable {
  id: Generated<number>;
  projectId: number;
  versionId: number;
  salt: string;
  passwordHash: string | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdBy: number | null;
  createdAt: CreatedAt;
  lastUsedAt: Date | null;
}

/** One row per review e-mail claimed (migration 0014): the unique key sends each mail once. */
export interface ReviewMailLedgerTable {
  id: Generated<number>;
  kind: 'ready' | 'reminder' | 'changes' | 'digest';
  projectId: Generated<number>;
  version: Generated<number>;
  userId: number;
  day: Generated<string>;
  coveredUntil: Date | null;
  sentAt: Generated<Date>;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type OrganizationRow = Selectable<OrganizationsTable>;
export type CreditsRow = Selectable<CreditsTable>;
export type AssetRow = Selectable<AssetsTable>;
export type MediaJobRow = Selectable<MediaJobsTable>;
export type ProjectVersionRow = Selectable<ProjectVersionsTable>;
export type ReviewCommentRow = Selectable<ReviewCommentsTable>;
export type ReviewShareLinkRow = Selectable<ReviewShareLinksTable>;
