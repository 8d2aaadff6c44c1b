import type { ProjectStatus } from './project-status.ts';
import { isCustomerRole, isManagerRole, isStaffRole, type RoleName } from './roles.ts';
import { storableTextRule } from './validation.ts';

/**
 * Frame-accurate review: who may see, write, resolve, edit and delete the time-coded comments
 * on a project's versions. One home for the server (which answers the refusal's status) and
 * the UI (which hides what this refuses), like project-rules.ts for the project's actions.
 *
 * Every decision checks, in this order: can the actor see the version at all (else 404, so a
 * link or an id never reveals that a hidden version exists), is commenting still open (else
 * 409), may this actor do it (else 403), is the input valid (else 400).
 */

/** Comment text, counted in characters (code points, as PostgreSQL counts `varchar`) after trim. */
export const COMMENT_TEXT_MIN = 1;
export const COMMENT_TEXT_MAX = 2000;
/**
 * Comments (threads and replies) one version can hold. A real review has tens; the ceiling keeps
 * one version's list (read again by every open page at each change) within a few megabytes,
 * whatever one account posts.
 */
export const COMMENTS_PER_VERSION_MAX = 500;
/** A guest's typed name, in characters after trim. */
export const GUEST_NAME_MAX = 80;

/**
 * After approval the comments are the record of what was asked for and what was delivered:
 * read-only. DELETED and HIDDEN projects are gone, so nothing is written to them either.
 */
export const COMMENTS_CLOSED_STATUSES: readonly ProjectStatus[] = ['APPROVED', 'ARCHIVED', 'DELETED', 'HIDDEN'];
/** Statuses in which customers and guests see nothing of the project (customer-view.ts agrees). */
const GONE_FOR_CUSTOMERS: readonly ProjectStatus[] = ['DELETED', 'HIDDEN'];

export type ReviewRefusalReason = 'not-found' | 'forbidden' | 'closed' | 'invalid';
export type ReviewDecision = { ok: true } | { ok: false; reason: ReviewRefusalReason; message: string };

/** The HTTP status the server answers each refusal with. */
export const REVIEW_REFUSAL_STATUS: Readonly<Record<ReviewRefusalReason, 400 | 403 | 404 | 409>> = {
  'not-found': 404,
  forbidden: 403,
  closed: 409,
  invalid: 400,
};

export const REVIEW_MESSAGES = {
  notFound: 'This version does not exist or you do not have access to it.',
  versionFull: `This version already has ${COMMENTS_PER_VERSION_MAX} comments: resolve or delete some, or write to the team.`,
  closed: 'This project is approved: its review comments are read-only.',
  resolveForbidden: 'Only the comment’s author and the production team can resolve or reopen it.',
  editForbidden: 'Only the comment’s author can edit it.',
  deleteForbidden: 'Only the comment’s author or an administrator can delete it.',
  textRequired: 'Write a comment.',
  textTooLong: `A comment can be at most ${COMMENT_TEXT_MAX} characters.`,
  frameInvalid: 'The comment’s frame must be a whole number, 0 or more.',
  endFrameInvalid: 'The end of the range must be a whole frame after its start.',
  pastEnd: 'The comment is placed after the end of the video.',
  replyFrame: 'A reply belongs to its thread’s frame: send no frame with it.',
  replyDepth: 'You can reply to a comment, not to a reply.',
  replyVersion: 'A reply must be on the same version as the comment it answers.',
  resolveReply: 'Only a whole thread can be resolved or reopened, not a single reply.',
  guestNameRequired: 'Enter your name so the team knows who commented.',
  guestNameTooLong: `Your name can be at most ${GUEST_NAME_MAX} characters.`,
  guestNameFromMember: 'Signed-in people comment under their account’s name.',
  changesNeedFeedback: 'Leave at least one open comment or write a note before requesting changes.',
} as const;

/**
 * A share link for one version of one project, as the server loaded it by its token. Guests
 * see and comment on that version only, while the link is neither revoked nor expired.
 */
export interface ShareLink {
  readonly projectId: number;
  readonly version: number;
  readonly expiresAt: Date | string | null;
  readonly revokedAt: Date | string | null;
}

/**
 * Who is acting. A signed-in person (staff or a customer) is a `member`; someone who opened a
 * share link without an account is a `guest`, known only by the link. The two are separate
 * kinds, not one shape with optional fields, so a guest can never pass a role check by
 * accident and a member is never mistaken for a link holder.
 */
export type ReviewActor =
  | { readonly kind: 'member'; readonly role: RoleName; readonly userId: number; readonly organizationId: number | null }
  | { readonly kind: 'guest'; readonly link: ShareLink };

export interface ReviewProject {
  readonly id: number;
  readonly organizationId: number;
  readonly status: ProjectStatus;
  /** Versions uploaded so far, 1..versions; staff see them all. */
  readonly versions: number;
  /** Versions sent to review so far: customers and guests see 1..releasedVersions, never the one in editing. */
  readonly releasedVersions: number;
}

export interface ReviewComment {
  readonly version: number;
  /** Null for a guest's comment. */
  readonly authorUserId: number | null;
  readonly authorGuestName?: string | null;
  /** The thread's first comment when this is a reply; null for the thread itself. */
  readonly parentId: number | null;
  readonly resolved: boolean;
}

export interface NewComment {
  readonly version: number;
  readonly text: string;
  /** The first frame the comment is about; null or absent for a reply. */
  readonly frame?: number | null;
  /** Exclusive end of a range comment (the first frame after it); absent for a single frame. */
  readonly endFrame?: number | null;
  /** Required from guests (they have no account to name them), refused from members. */
  readonly guestName?: string | null;
  /** The comment answered, as the server loaded it; absent or null for a new thread. */
  readonly parent?: Pick<ReviewComment, 'version' | 'parentId'> | null;
  /** The version's length in frames, when the media pipeline has measured it. */
  readonly durationFrames?: number | null;
}

const OK: ReviewDecision = { ok: true };
const refuse = (reason: ReviewRefusalReason, message: string): ReviewDecision => ({ ok: false, reason, message });

const instant = (value: Date | string | number) => (value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value));

/** A link works until it is revoked or its expiry passes (an unparsable expiry counts as passed). */
export function isShareLinkActive(link: ShareLink, now: Date | number = Date.now()): boolean {
  if (link.revokedAt !== null) return false;
  if (link.expiresAt === null) return true;
  return instant(now) < instant(link.expiresAt);
}

function range(last: number): number[] {
  return Array.from({ length: Math.max(0, Math.floor(last)) }, (_, i) => i + 1);
}

/**
 * The versions an actor may see, ascending. Staff: every uploaded version of every project
 * (HIDDEN ones too, so they can restore them). Members of the project's organization: the
 * versions sent to review, unless the project is deleted. Guests: their link's version, if the
 * link is active, for this project, and that version was sent to review (a link made for a
 * version later pulled back shows nothing). Everyone else: none.
 */
export function visibleVersionsFor(actor: ReviewActor, project: ReviewProject, now: Date | number = Date.now()): readonly number[] {
  const released = Math.min(project.releasedVersions, project.versions);
  if (actor.kind === 'guest') {
    const { link } = actor;
    const fits = link.projectId === project.id && link.version >= 1 && link.version <= released && !GONE_FOR_CUSTOMERS.includes(project.status);
    return fits && isShareLinkActive(link, now) ? [link.version] : [];
  }
  if (isStaffRole(actor.role)) return range(project.versions);
  if (isCustomerRole(actor.role) && actor.organizationId === project.organizationId && !GONE_FOR_CUSTOMERS.includes(project.status)) return range(released);
  return [];
}

/** Whether the actor may see (and so read the comments of) one version; 404 otherwise. */
export function canSeeVersion(actor: ReviewActor, project: ReviewProject, version: number, now: Date | number = Date.now()): ReviewDecision {
  return visibleVersionsFor(actor, project, now).includes(version) ? OK : refuse('not-found', REVIEW_MESSAGES.notFound);
}

/** Whether new comments, edits, resolutions are still accepted on the project. */
export function isCommentingOpen(status: ProjectStatus): boolean {
  return !COMMENTS_CLOSED_STATUSES.includes(status);
}

const characters = (text: string) => [...text].length;

/** Comment text: 1..COMMENT_TEXT_MAX characters after trim, storable. A message, or undefined when valid. */
export function validateCommentText(text: string): string | undefined {
  const trimmed = text.trim();
  if (characters(trimmed) < COMMENT_TEXT_MIN) return REVIEW_MESSAGES.textRequired;
  if (characters(trimmed) > COMMENT_TEXT_MAX) return REVIEW_MESSAGES.textTooLong;
  return storableTextRule(trimmed);
}

const isFrame = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const given = <T>(value: T | null | undefined): value is T => value !== null && value !== undefined;

/**
 * The placement of a new thread. `endFrame` is exclusive (a range of frames [frame, endFrame)),
 * so it is strictly after `frame`. Both may equal `durationFrames`: a player paused at its very
 * end reports currentTime = duration, which is frame `durationFrames`, and a comment made there
 * is about the last picture, not an error.
 */
function placementProblem(comment: NewComment): string | undefined {
  if (!isFrame(comment.frame)) return REVIEW_MESSAGES.frameInvalid;
  if (given(comment.endFrame) && !(isFrame(comment.endFrame) && comment.endFrame > comment.frame)) return REVIEW_MESSAGES.endFrameInvalid;
  const duration = comment.durationFrames;
  if (given(duration) && (comment.frame > duration || (given(comment.endFrame) && comment.endFrame > duration))) return REVIEW_MESSAGES.pastEnd;
  return undefined;
}

function newCommentProblem(actor: ReviewActor, comment: NewComment): string | undefined {
  const textProblem = validateCommentText(comment.text);
  if (textProblem) return textProblem;
  if (actor.kind === 'guest') {
    const name = (comment.guestName ?? '').trim();
    if (!name) return REVIEW_MESSAGES.guestNameRequired;
    if (characters(name) > GUEST_NAME_MAX) return REVIEW_MESSAGES.guestNameTooLong;
    const nameProblem = storableTextRule(name);
    if (nameProblem) return nameProblem;
  } else if ((comment.guestName ?? '').trim()) return REVIEW_MESSAGES.guestNameFromMember;
  const parent = comment.parent;
  if (!parent) return placementProblem(comment);
  if (parent.parentId !== null) return REVIEW_MESSAGES.replyDepth;
  if (parent.version !== comment.version) return REVIEW_MESSAGES.replyVersion;
  if (given(comment.frame) || given(comment.endFrame)) return REVIEW_MESSAGES.replyFrame;
  return undefined;
}

/**
 * A new comment or reply: whoever may see the version may comment on it (guests included,
 * under a typed name) while the project is open. Comments on older versions are allowed too,
 * so a thread started there can be finished. Replies go one level deep.
 */
export function decideCreateComment(actor: ReviewActor, project: ReviewProject, comment: NewComment, now: Date | number = Date.now()): ReviewDecision {
  const seen = canSeeVersion(actor, project, comment.version, now);
  if (!seen.ok) return seen;
  if (!isCommentingOpen(project.status)) return refuse('closed', REVIEW_MESSAGES.closed);
  const problem = newCommentProblem(actor, comment);
  return problem ? refuse('invalid', problem) : OK;
}

/**
 * True when the actor wrote the comment. Only members can be proven authors: a guest's name is
 * typed, and anyone holding the same link could type it again, so a guest never owns a comment
 * (guests cannot edit, delete or resolve, not even what they wrote; staff tidy up for them).
 */
function isAuthor(actor: ReviewActor, comment: Pick<ReviewComment, 'authorUserId'>): boolean {
  return actor.kind === 'member' && comment.authorUserId !== null && comment.authorUserId === actor.userId;
}

const isStaffMember = (actor: ReviewActor) => actor.kind === 'member' && isStaffRole(actor.role);
const isManagerMember = (actor: ReviewActor) => actor.kind === 'member' && isManagerRole(actor.role);

function seenAndOpen(actor: ReviewActor, project: ReviewProject, comment: ReviewComment, now: Date | number): ReviewDecision {
  const seen = canSeeVersion(actor, project, comment.version, now);
  if (!seen.ok) return seen;
  return isCommentingOpen(project.status) ? OK : refuse('closed', REVIEW_MESSAGES.closed);
}

/**
 * Resolve or reopen a thread (one rule for both, so whoever can close it can undo it): staff,
 * who work through the feedback, and the thread's author, who knows when it is addressed.
 * Replies are not resolved on their own; their thread is.
 */
export function decideResolve(actor: ReviewActor, project: ReviewProject, comment: ReviewComment, now: Date | number = Date.now()): ReviewDecision {
  const base = seenAndOpen(actor, project, comment, now);
  if (!base.ok) return base;
  if (!isStaffMember(actor) && !isAuthor(actor, comment)) return refuse('forbidden', REVIEW_MESSAGES.resolveForbidden);
  return comment.parentId === null ? OK : refuse('invalid', REVIEW_MESSAGES.resolveReply);
}

/**
 * Edit a comment's text: its author only. Nobody else, staff included, puts words in
 * someone's name; a manager who must remove a comment deletes it instead.
 */
export function decideEdit(actor: ReviewActor, project: ReviewProject, comment: ReviewComment, text: string, now: Date | number = Date.now()): ReviewDecision {
  const base = seenAndOpen(actor, project, comment, now);
  if (!base.ok) return base;
  if (!isAuthor(actor, comment)) return refuse('forbidden', REVIEW_MESSAGES.editForbidden);
  const problem = validateCommentText(text);
  return problem ? refuse('invalid', problem) : OK;
}

/**
 * Delete a comment: its author while commenting is open; ADMIN and SUPERADMIN any comment, at
 * any time, as moderation (a guest's abusive text, personal data pasted by mistake), even after
 * approval. An EDITOR may not delete others' comments: the feedback on an editor's work is not
 * theirs to remove. (What happens to a deleted thread's replies is the server's storage choice.)
 */
export function decideDelete(actor: ReviewActor, project: ReviewProject, comment: ReviewComment, now: Date | number = Date.now()): ReviewDecision {
  const seen = canSeeVersion(actor, project, comment.version, now);
  if (!seen.ok) return seen;
  if (isManagerMember(actor)) return OK;
  if (!isCommentingOpen(project.status)) return refuse('closed', REVIEW_MESSAGES.closed);
  return isAuthor(actor, comment) ? OK : refuse('forbidden', REVIEW_MESSAGES.deleteForbidden);
}

/** What the caller may do to one comment, as the list shows it (the UI offers exactly these). */
export interface CommentPermissions {
  readonly canEdit: boolean;
  readonly canResolve: boolean;
  readonly canDelete: boolean;
}

/**
 * decideEdit, decideResolve and decideDelete for every comment of one version at once: whether
 * the actor sees the version and whether commenting is open are decided once per list, not three
 * times per comment (a list holds up to 500, read again by every open page at each change). The
 * same rules as the decide functions above; tests/domain/review-rules.test.ts holds them equal.
 * The text is the stored one, valid by construction, so editing is decided without it.
 */
export function commentPermissions(
  actor: ReviewActor,
  project: ReviewProject,
  version: number,
  now: Date | number = Date.now(),
): (comment: Pick<ReviewComment, 'authorUserId' | 'parentId'>) => CommentPermissions {
  const seen = canSeeVersion(actor, project, version, now).ok;
  const open = isCommentingOpen(project.status);
  const staff = isStaffMember(actor);
  const manager = isManagerMember(actor);
  return (comment) => {
    const author = isAuthor(actor, comment);
    return {
      canEdit: seen && open && author,
      canResolve: seen && open && comment.parentId === null && (staff || author),
      canDelete: seen && (manager || (open && author)),
    };
  };
}

export interface ChangeRequest {
  /** Unresolved threads on the current version. */
  readonly openComments: number;
  /** The written note sent with the request, if any. */
  readonly note: string | null | undefined;
}

/**
 * Requesting changes sends the editor back to work, so it must say what to change: at least one
 * open comment on the current version, or a written note. (Who may request changes, and in
 * which status, is project-rules.ts's 'submit-revision'.)
 */
export function decideRequestChanges(request: ChangeRequest): ReviewDecision {
  const hasNote = (request.note ?? '').trim().length > 0;
  return request.openComments > 0 || hasNote ? OK : refuse('invalid', REVIEW_MESSAGES.changesNeedFeedback);
}

/** Convenience for the UI: true when decideRequestChanges would allow the request. */
export function canRequestChanges(request: ChangeRequest): boolean {
  return decideRequestChanges(request).ok;
}
