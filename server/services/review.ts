import type { Comment, CommentList, CreateCommentBody, ExportFormat, Thread, UpdateCommentBody, Version } from '../../src/domain/contract/review.ts';
import { customerSeesVersion } from '../../src/domain/customer-view.ts';
import {
  COMMENTS_PER_VERSION_MAX,
  REVIEW_MESSAGES,
  REVIEW_REFUSAL_STATUS,
  canSeeVersion,
  commentPermissions,
  decideCreateComment,
  decideDelete,
  decideEdit,
  decideResolve,
  type ReviewActor,
  type ReviewComment,
  type ReviewDecision,
  type ReviewProject,
  type ShareLink,
} from '../../src/domain/review-rules.ts';
import { GUEST_ROLE, type CommentAuthorRole } from '../../src/domain/share-links.ts';
import { isCustomerRole } from '../../src/domain/roles.ts';
import { frameToTimecode, type FrameRate } from '../../src/domain/timecode.ts';
import type { AppContext } from '../context.ts';
import type { ProjectVersionRow, ReviewCommentRow } from '../db/schema.ts';
import { publishChange } from '../events/bus.ts';
import { HttpError, badRequest, conflict, forbidden, notFound } from '../http-error.ts';
import type { AuthContext } from '../plugins/auth.ts';
import type { ProjectDetails } from '../repositories/projects.ts';
import { reviewRepo } from '../repositories/review.ts';
import { commentsPdfFile } from '../review/comments-pdf-export.ts';
import { toCsv, toEdl, toFcpxml } from '../review/export-markers.ts';

/**
 * Frame-accurate review: versions of the final video and the time-coded comments on them. The
 * rules (who sees, who writes, limits) are src/domain/review-rules.ts's; this applies them to
 * the stored rows and answers their refusals with the status they name.
 */

/** Until ffprobe has measured a version its rate is unknown; answers assume this one and say so. */
const ASSUMED_RATE: FrameRate = { num: 30, den: 1 };

export const REVIEW_SERVICE_MESSAGES = {
  impersonating: 'An administrator signed in as a customer cannot write review comments in the customer’s name.',
  nothingToChange: 'Send the new text or whether the comment is resolved.',
  parentMissing: 'The comment you are replying to does not exist any more.',
} as const;

/**
 * Media links signed for the caller by the route: of the project's current final video (null,
 * the same links as the project's own) or of one version's own files.
 */
export type VersionMediaLinks = (version: number | null) => NonNullable<Version['media']>;

/**
 * Who calls, as the review sees it: the rules' actor, whether an administrator acts in a
 * customer's name (they read, never write), and the name a new comment is signed with.
 */
export interface ReviewCaller {
  readonly actor: ReviewActor;
  readonly impersonating: boolean;
  readonly author: { readonly userId: number | null; readonly name: string | null; readonly role: CommentAuthorRole; readonly shareLinkId: number | null };
}

/** A signed-in person (staff or customer). */
export function memberCaller(auth: AuthContext): ReviewCaller {
  return {
    actor: { kind: 'member', role: auth.user.role, userId: auth.user.id, organizationId: auth.user.organizationId },
    impersonating: auth.impersonatorId !== null,
    author: { userId: auth.user.id, name: `${auth.user.firstName} ${auth.user.lastName}`.trim() || auth.user.email, role: auth.user.role, shareLinkId: null },
  };
}

/** A guest through a share link: the name comes with each comment (the rules require it). */
export function guestCaller(link: ShareLink & { id: number }): ReviewCaller {
  return { actor: { kind: 'guest', link }, impersonating: false, author: { userId: null, name: null, role: GUEST_ROLE, shareLinkId: link.id } };
}

function reviewProject(project: ProjectDetails, versions: readonly ProjectVersionRow[]): ReviewProject {
  const released = versions.filter((version) => version.releasedAt !== null);
  return {
    id: project.id,
    organizationId: project.organizationId,
    status: project.status,
    versions: versions.reduce((top, version) => Math.max(top, version.number), 0),
    releasedVersions: released.reduce((top, version) => Math.max(top, version.number), 0),
  };
}

function rateOf(version: ProjectVersionRow): { rate: FrameRate; known: boolean } {
  return version.frameRateNum && version.frameRateDen
    ? { rate: { num: version.frameRateNum, den: version.frameRateDen }, known: true }
    : { rate: ASSUMED_RATE, known: false };
}

/** Which field a refusal's message is about, for the form. */
const FIELD_OF: Partial<Record<string, string>> = {
  [REVIEW_MESSAGES.textRequired]: 'text',
  [REVIEW_MESSAGES.textTooLong]: 'text',
  [REVIEW_MESSAGES.frameInvalid]: 'frame',
  [REVIEW_MESSAGES.endFrameInvalid]: 'endFrame',
  [REVIEW_MESSAGES.pastEnd]: 'frame',
  [REVIEW_MESSAGES.replyFrame]: 'frame',
  [REVIEW_MESSAGES.replyDepth]: 'parentId',
  [REVIEW_MESSAGES.replyVersion]: 'parentId',
  [REVIEW_MESSAGES.resolveReply]: 'resolved',
};

/** A refusal of the rules as the error the server answers (404, 403, 409, or 400 on its field). */
function require(decision: ReviewDecision, field = 'text'): void {
  if (decision.ok) return;
  const status = REVIEW_REFUSAL_STATUS[decision.reason];
  if (status === 400) throw badRequest(decision.message, { fields: { [FIELD_OF[decision.message] ?? field]: decision.message } });
  throw new HttpError(status, decision.message);
}

/** The caller's view of the project's review: its versions and what the rules make of them. */
export async function reviewState(ctx: AppContext, project: ProjectDetails) {
  const versions = await reviewRepo(ctx.db).versions(project.id);
  return { versions, review: reviewProject(project, versions) };
}

/** One version the caller may see, or 404 (the rules' own answer, so a hidden version is never revealed). */
export async function visibleVersion(ctx: AppContext, caller: ReviewCaller, project: ProjectDetails, number: number) {
  const { versions, review } = await reviewState(ctx, project);
  const version = versions.find((row) => row.number === number);
  require(canSeeVersion(caller.actor, review, number));
  if (!version) throw notFound(REVIEW_MESSAGES.notFound);
  return { version, review };
}

/**
 * The version a versioned media link plays, re-checked at every request with the same rule as
 * the list (canSeeVersion: customers play released versions only); 404 otherwise.
 */
export async function playableVersion(ctx: AppContext, caller: ReviewCaller, project: ProjectDetails, number: number): Promise<ProjectVersionRow> {
  return (await visibleVersion(ctx, caller, project, number)).version;
}

/** GET projects/{id}/versions: the versions the caller may see, oldest first, each with its media links. */
export async function listVersions(ctx: AppContext, auth: AuthContext, project: ProjectDetails, links: VersionMediaLinks): Promise<{ versions: Version[] }> {
  const { versions, review } = await reviewState(ctx, project);
  const { actor } = memberCaller(auth);
  // A customer plays the current cut only while it is theirs (the media links check the same rule).
  const playable = !isCustomerRole(auth.user.role) || customerSeesVersion(project.status, project.versionReleased);
  return {
    versions: versions
      .filter((version) => canSeeVersion(actor, review, version.number).ok)
      .map((version) => {
        const current = version.videoPath === project.finalVideoPath;
        // The current cut keeps the project's own links (the page's player does not restart);
        // any other visible version, or the current one outside the customer's review window, its own.
        return versionView(version, current, links(current && playable ? null : version.number));
      }),
  };
}

/** A version as the API shows it, with the media links signed for its caller. */
export function versionView(version: ProjectVersionRow, current: boolean, media: Version['media']): Version {
  const { rate, known } = rateOf(version);
  return {
    number: version.number,
    createdAt: version.createdAt.toISOString(),
    releasedAt: version.releasedAt?.toISOString() ?? null,
    current,
    frameRate: { num: rate.num, den: rate.den },
    frameRateKnown: known,
    durationFrames: version.durationFrames,
    width: version.width,
    height: version.height,
    media,
  };
}

function storedComment(row: ReviewCommentRow, versionNumber: number): ReviewComment {
  return { version: versionNumber, authorUserId: row.authorUserId, parentId: row.parentId, resolved: row.resolvedAt !== null };
}

/** Builds the caller's view of a version's comments; the permissions are decided once for the version. */
function viewerFor(caller: ReviewCaller, review: ReviewProject, version: ProjectVersionRow): (row: ReviewCommentRow, deleted?: boolean) => Comment {
  const { rate } = rateOf(version);
  const permissions = commentPermissions(caller.actor, review, version.number);
  const none = { canEdit: false, canResolve: false, canDelete: false };
  return (row, deleted = false) => ({
    id: row.id,
    version: version.number,
    parentId: row.parentId,
    frame: row.frame,
    endFrame: row.endFrame,
    timecode: frameToTimecode(row.frame, rate),
    endTimecode: row.endFrame === null ? null : frameToTimecode(row.endFrame, rate),
    text: deleted ? '' : row.text,
    drawing: deleted ? null : (row.drawing ?? null),
    author: { name: row.authorName, role: row.authorRole },
    resolved: row.resolvedAt !== null,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    deleted,
    // An administrator signed in as a customer reads only; a deleted placeholder offers nothing.
    ...(caller.impersonating || deleted ? none : permissions(row)),
  });
}

/**
 * Threads by frame, replies under them oldest first. `heads` may hold deleted first comments: a
 * deleted thread stays as an empty placeholder while replies answer it (other people's words).
 */
function threadsOf(heads: readonly ReviewCommentRow[], replies: readonly ReviewCommentRow[], view: ReturnType<typeof viewerFor>): Thread[] {
  const threads = new Map<number, Thread>();
  for (const row of [...heads].sort((a, b) => a.frame - b.frame || a.id - b.id)) threads.set(row.id, { ...view(row, row.deletedAt !== null), replies: [] });
  for (const row of replies) threads.get(row.parentId!)?.replies.push(view(row));
  return [...threads.values()];
}

/** GET projects/{id}/comments?version=N: threads by frame, replies under them. */
export async function listComments(ctx: AppContext, caller: ReviewCaller, project: ProjectDetails, number: number): Promise<CommentList> {
  const { version, review } = await visibleVersion(ctx, caller, project, number);
  const repo = reviewRepo(ctx.db);
  const rows = await repo.comments(version.id);
  const placeholders = await repo.deletedThreadsWithReplies(version.id);
  const heads = [...rows.filter((row) => row.parentId === null), ...placeholders];
  const comments = threadsOf(
    heads,
    rows.filter((row) => row.parentId !== null),
    viewerFor(caller, review, version),
  );
  const { rate, known } = rateOf(version);
  return { version: version.number, frameRate: { num: rate.num, den: rate.den }, frameRateKnown: known, comments };
}

/**
 * GET projects/{id}/comments/{commentId}: the thread a comment belongs to (itself, or its
 * parent), with its live replies, as the list shows it. What an open page reads when the event
 * stream names a changed comment, instead of the whole list. 404 when the thread is gone (deleted
 * with no live reply) or on a version the caller may not see.
 */
export async function threadOf(ctx: AppContext, caller: ReviewCaller, project: ProjectDetails, commentId: number): Promise<Thread> {
  const repo = reviewRepo(ctx.db);
  const rows = await repo.threadAround(project.id, commentId);
  const head = rows.find((row) => row.parentId === null);
  const replies = rows.filter((row) => row.parentId !== null && row.deletedAt === null);
  if (!head || (head.deletedAt !== null && replies.length === 0)) throw notFound();
  const { versions, review } = await reviewState(ctx, project);
  const version = versions.find((v) => v.id === head.versionId);
  if (!version || !canSeeVersion(caller.actor, review, version.number).ok) throw notFound();
  return threadsOf([head], replies, viewerFor(caller, review, version))[0]!;
}

function refuseImpersonation(caller: ReviewCaller): void {
  if (caller.impersonating) throw forbidden(REVIEW_SERVICE_MESSAGES.impersonating);
}

/** POST projects/{id}/comments: a thread on a frame (or range), or a reply to a thread. */
export async function createComment(
  ctx: AppContext,
  caller: ReviewCaller,
  project: ProjectDetails,
  body: CreateCommentBody & { guestName?: string | null },
): Promise<Comment> {
  const { version, review } = await visibleVersion(ctx, caller, project, body.version);
  const repo = reviewRepo(ctx.db);
  let parent: ReviewCommentRow | undefined;
  let parentVersion: number | undefined;
  if (body.parentId !== undefined && body.parentId !== null) {
    parent = await repo.comment(project.id, body.parentId);
    if (!parent) throw notFound(REVIEW_SERVICE_MESSAGES.parentMissing);
    parentVersion = parent.versionId === version.id ? version.number : ((await repo.versionById(parent.versionId))?.number ?? 0);
    // A comment on a version the caller may not see answers exactly as a missing one: its id must not tell.
    if (!canSeeVersion(caller.actor, review, parentVersion).ok) throw notFound(REVIEW_SERVICE_MESSAGES.parentMissing);
  }
  const text = body.text.trim();
  const guestName = body.guestName?.trim() ?? null;
  require(
    decideCreateComment(caller.actor, review, {
      version: version.number,
      text,
      guestName,
      frame: body.frame ?? null,
      endFrame: body.endFrame ?? null,
      parent: parent ? { version: parentVersion!, parentId: parent.parentId } : null,
      durationFrames: version.durationFrames,
    }),
  );
  refuseImpersonation(caller);
  if ((await repo.countComments(version.id)) >= COMMENTS_PER_VERSION_MAX) throw conflict(REVIEW_MESSAGES.versionFull);
  const { author } = caller;
  const row = await repo.insertComment({
    projectId: project.id,
    versionId: version.id,
    parentId: parent?.id ?? null,
    authorUserId: author.userId,
    // A guest signs with the name they typed (required by the rules above).
    authorName: author.name ?? guestName!,
    authorRole: author.role,
    shareLinkId: author.shareLinkId,
    // A reply sits on its thread's frame, so a version's comments list by frame with one index.
    frame: parent ? parent.frame : body.frame!,
    endFrame: parent ? null : (body.endFrame ?? null),
    text,
    drawing: body.drawing ?? null,
  });
  // Every open page of the project reads its comments again (server/events/).
  await publishChange(ctx.db, { type: 'comment', projectId: project.id, version: version.number, released: version.releasedAt !== null, commentId: row.id });
  return viewerFor(caller, review, version)(row);
}

/** The live comment `commentId` of the project, on a version the caller may see (404 otherwise). */
async function visibleComment(ctx: AppContext, caller: ReviewCaller, project: ProjectDetails, commentId: number) {
  const repo = reviewRepo(ctx.db);
  const row = await repo.comment(project.id, commentId);
  if (!row) throw notFound();
  const { versions, review } = await reviewState(ctx, project);
  const version = versions.find((v) => v.id === row.versionId);
  // Not the rules' own refusal: a comment on a version the caller may not see is as missing as one that never was.
  if (!version || !canSeeVersion(caller.actor, review, version.number).ok) throw notFound();
  return { row, version, review };
}

/** PATCH projects/{id}/comments/{commentId}: the author edits the text; staff and the author resolve or reopen a thread. */
export async function updateComment(
  ctx: AppContext,
  caller: ReviewCaller,
  project: ProjectDetails,
  commentId: number,
  body: UpdateCommentBody,
): Promise<Comment> {
  if (body.text === undefined && body.resolved === undefined)
    throw badRequest(REVIEW_SERVICE_MESSAGES.nothingToChange, { fields: { text: REVIEW_SERVICE_MESSAGES.nothingToChange } });
  const { row, version, review } = await visibleComment(ctx, caller, project, commentId);
  const { actor } = caller;
  const stored = storedComment(row, version.number);
  const text = body.text?.trim();
  if (text !== undefined) require(decideEdit(actor, review, stored, text));
  if (body.resolved !== undefined) require(decideResolve(actor, review, stored), 'resolved');
  refuseImpersonation(caller);
  const now = new Date();
  // Only members resolve (the rules above), so the author's id is there.
  const resolved =
    body.resolved === undefined || body.resolved === (row.resolvedAt !== null) ? undefined : body.resolved ? { at: now, by: caller.author.userId! } : null;
  const updated = await reviewRepo(ctx.db).updateComment(row.id, { ...(text !== undefined && { text }), ...(resolved !== undefined && { resolved }) }, now);
  if (!updated) throw notFound();
  await publishChange(ctx.db, { type: 'comment', projectId: project.id, version: version.number, released: version.releasedAt !== null, commentId: row.id });
  return viewerFor(caller, review, version)(updated);
}

/** DELETE projects/{id}/comments/{commentId}: soft; a thread's replies stay readable under an empty placeholder. */
export async function deleteComment(ctx: AppContext, caller: ReviewCaller, project: ProjectDetails, commentId: number): Promise<void> {
  const { row, version, review } = await visibleComment(ctx, caller, project, commentId);
  require(decideDelete(caller.actor, review, storedComment(row, version.number)));
  refuseImpersonation(caller);
  await reviewRepo(ctx.db).deleteComment(row.id, new Date());
  await publishChange(ctx.db, { type: 'comment', projectId: project.id, version: version.number, released: version.releasedAt !== null, commentId: row.id });
}

const EXPORTS: Record<Exclude<ExportFormat, 'pdf'>, { write: typeof toCsv; contentType: string; extension: string }> = {
  csv: { write: toCsv, contentType: 'text/csv; charset=utf-8', extension: 'csv' },
  // CMX3600 has no registered media type; editors open it as text.
  edl: { write: toEdl, contentType: 'text/plain; charset=utf-8', extension: 'edl' },
  fcpxml: { write: toFcpxml, contentType: 'application/xml; charset=utf-8', extension: 'fcpxml' },
};

/** A file name any system and any header accepts: letters, digits, `.`, `_`, `-`. */
function safeStem(name: string, fallback: string): string {
  const stem = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+|[._]+$/g, '')
    .slice(0, 80);
  return stem || fallback;
}

/** GET projects/{id}/comments/export (staff): a version's threads as markers for an editing application, or as a printable PDF. */
export async function exportComments(
  ctx: AppContext,
  auth: AuthContext,
  project: ProjectDetails,
  number: number,
  format: ExportFormat,
): Promise<{ body: string | Buffer; contentType: string; fileName: string }> {
  const { version } = await visibleVersion(ctx, memberCaller(auth), project, number);
  const stem = `${safeStem(project.name, `project-${project.id}`)}_v${String(version.number).padStart(2, '0')}_comments`;
  if (format === 'pdf') {
    // For people, not an editing application: the replies too, and threads deleted under replies, as the list shows them.
    const { comments } = await listComments(ctx, memberCaller(auth), project, number);
    return {
      body: await commentsPdfFile(ctx.storage, project.name, version, rateOf(version), comments),
      contentType: 'application/pdf',
      fileName: `${stem}.pdf`,
    };
  }
  const repo = reviewRepo(ctx.db);
  const live = await repo.comments(version.id);
  // The CSV is for people too: the replies, and a deleted thread kept for its replies (the marker formats leave both out).
  const heads = [...live.filter((row) => row.parentId === null), ...(format === 'csv' ? await repo.deletedThreadsWithReplies(version.id) : [])];
  const replies = new Map<number, ReviewCommentRow[]>();
  for (const row of live) if (row.parentId !== null) replies.set(row.parentId, [...(replies.get(row.parentId) ?? []), row]);
  const rows = heads.sort((a, b) => a.frame - b.frame || a.id - b.id);
  const { rate } = rateOf(version);
  const exporter = EXPORTS[format];
  const body = exporter.write({
    projectName: project.name,
    version: version.number,
    rate,
    durationFrames: version.durationFrames ?? rows.reduce((end, row) => Math.max(end, row.endFrame ?? row.frame + 1), 1),
    width: version.width,
    height: version.height,
    comments: rows.map((row) => ({
      frame: row.frame,
      endFrame: row.endFrame,
      text: row.text,
      author: row.authorName,
      resolved: row.resolvedAt !== null,
      deleted: row.deletedAt !== null,
      replies: (replies.get(row.id) ?? []).sort((a, b) => a.id - b.id).map((reply) => ({ text: reply.text, author: reply.authorName })),
    })),
  });
  return { body, contentType: exporter.contentType, fileName: `${stem}.${exporter.extension}` };
}
