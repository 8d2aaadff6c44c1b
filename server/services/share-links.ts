import type { Comment, CommentList } from '../../src/domain/contract/review.ts';
import { pathTo } from '../../src/domain/pages.ts';
import type { CreateShareLinkBody, GuestCommentBody, GuestReview, ShareLinkView } from '../../src/domain/contract/share-links.ts';
import { REVIEW_REFUSAL_STATUS, isCommentingOpen, visibleVersionsFor, type ReviewDecision, type ShareLink } from '../../src/domain/review-rules.ts';
import { SHARE_MESSAGES, canManageShareLinks, decideCreateShareLink, shareLinkState } from '../../src/domain/share-links.ts';
import type { AppContext } from '../context.ts';
import { HttpError, badRequest, forbidden, notFound, unauthorized } from '../http-error.ts';
import { mediaUrl } from '../media/media-links.ts';
import type { AuthContext } from '../plugins/auth.ts';
import { projectsRepo, type ProjectDetails } from '../repositories/projects.ts';
import { reviewRepo } from '../repositories/review.ts';
import { shareLinksRepo, type ShareLinkListing } from '../repositories/share-links.ts';
import {
  isShareLinkToken,
  newShareSalt,
  shareLinkIdOf,
  shareLinkToken,
  signGuestMediaToken,
  signSharePass,
  verifyGuestMediaToken,
  verifySharePass,
  GUEST_PASS_HOURS,
} from '../review/share-tokens.ts';
import { hashSecret, verifyAgainstDecoy, verifySecret } from './passwords.ts';
import { createComment, guestCaller, listComments, memberCaller, reviewState, versionView, type ReviewCaller } from './review.ts';

/**
 * Guest review links (issue 13). The owner makes a link for one version they were sent
 * (expiring, optionally with a password) and may revoke it; a guest with the link sees that
 * version and its comments and comments under a typed name. Every guest call loads the link
 * again, so revoking or expiry ends it at once, and nothing else of the organization is reachable
 * through it: the project's name, that version's media and comments, no more.
 */

const DAY_MS = 86_400_000;

function require(decision: ReviewDecision): void {
  if (!decision.ok)
    throw new HttpError(
      REVIEW_REFUSAL_STATUS[decision.reason],
      decision.message,
      decision.reason === 'invalid' ? { fields: { version: decision.message } } : undefined,
    );
}

const asShareLink = (row: ShareLinkListing, projectId: number): ShareLink & { id: number } => ({
  id: row.id,
  projectId,
  version: row.versionNumber,
  expiresAt: row.expiresAt,
  revokedAt: row.revokedAt,
});

function linkView(ctx: AppContext, row: ShareLinkListing, now = Date.now()): ShareLinkView {
  return {
    id: row.id,
    version: row.versionNumber,
    url: `${ctx.config.publicUrl}${pathTo('guestReview', { token: shareLinkToken(ctx.config.jwtSecret, row.id, row.salt) })}`,
    state: shareLinkState(row, now),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    hasPassword: row.passwordHash !== null,
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    guestComments: row.guestComments,
  };
}

/** POST projects/{id}/share-links: the owner shares a version they were sent. */
export async function createShareLink(ctx: AppContext, auth: AuthContext, project: ProjectDetails, body: CreateShareLinkBody): Promise<ShareLinkView> {
  const now = new Date();
  const repo = shareLinksRepo(ctx.db);
  const { versions, review } = await reviewState(ctx, project);
  require(decideCreateShareLink(memberCaller(auth).actor, review, body.version, await repo.countActive(project.id, now)));
  const version = versions.find((row) => row.number === body.version)!;
  const password = body.password ? body.password : null;
  const row = await repo.insert({
    projectId: project.id,
    versionId: version.id,
    salt: newShareSalt(),
    passwordHash: password === null ? null : await hashSecret(password),
    expiresAt: new Date(now.getTime() + body.expiresInDays * DAY_MS),
    createdBy: auth.user.id,
  });
  return linkView(ctx, (await repo.byId(row.id))!, now.getTime());
}

function requireManager(auth: AuthContext, project: ProjectDetails): void {
  if (!canManageShareLinks(memberCaller(auth).actor, project)) throw forbidden(SHARE_MESSAGES.ownerOnly);
}

/** GET projects/{id}/share-links: the owner's links of the project, newest first. */
export async function listShareLinks(ctx: AppContext, auth: AuthContext, project: ProjectDetails): Promise<{ links: ShareLinkView[] }> {
  requireManager(auth, project);
  const now = Date.now();
  return { links: (await shareLinksRepo(ctx.db).listByProject(project.id)).map((row) => linkView(ctx, row, now)) };
}

/** DELETE projects/{id}/share-links/{linkId}: revoked at once, for every guest holding it. */
export async function revokeShareLink(ctx: AppContext, auth: AuthContext, project: ProjectDetails, linkId: number): Promise<void> {
  requireManager(auth, project);
  if (!(await shareLinksRepo(ctx.db).revoke(project.id, linkId, new Date()))) throw notFound();
}

/** A link as a guest reaches it: the row, its project, and the rules' guest. */
export interface OpenedShare {
  readonly row: ShareLinkListing;
  readonly project: ProjectDetails;
  readonly caller: ReviewCaller;
}

const gone = () => new HttpError(410, SHARE_MESSAGES.linkGone);

/**
 * The link `token` names, while it still shows its version (not revoked, not expired, the project
 * there and the version still the customer's): 404 for a token that is not one, 410 for a link
 * that ended. With `unlock`, a protected link also needs a pass for it (401 otherwise).
 */
async function openLink(ctx: AppContext, token: string, unlock: { pass: string | undefined } | null): Promise<OpenedShare> {
  const id = shareLinkIdOf(token);
  const row = id === null ? undefined : await shareLinksRepo(ctx.db).byId(id);
  if (!row || !isShareLinkToken(ctx.config.jwtSecret, token, row.id, row.salt)) throw notFound();
  const project = await projectsRepo(ctx.db).details(row.projectId);
  if (!project) throw gone();
  const link = asShareLink(row, project.id);
  const { review } = await reviewState(ctx, project);
  if (visibleVersionsFor({ kind: 'guest', link }, review).length === 0) throw gone();
  if (unlock && row.passwordHash !== null && (unlock.pass === undefined || verifySharePass(ctx.config.jwtSecret, unlock.pass) !== row.id))
    throw unauthorized(SHARE_MESSAGES.passwordRequired);
  return { row, project, caller: guestCaller(link) };
}

export const openShare = (ctx: AppContext, token: string, pass: string | undefined) => openLink(ctx, token, { pass });

/** GET share/{token}: the guest page; a protected link without its pass says only that. */
export async function guestReview(ctx: AppContext, token: string, pass: string | undefined, prefix: string): Promise<GuestReview> {
  const opened = await openLink(ctx, token, null);
  const { row, project } = opened;
  const unlocked = row.passwordHash === null || (pass !== undefined && verifySharePass(ctx.config.jwtSecret, pass) === row.id);
  const header = { requiresPassword: row.passwordHash !== null, expiresAt: row.expiresAt?.toISOString() ?? null };
  if (!unlocked) return { ...header, review: null };
  const version = (await reviewRepo(ctx.db).versionById(row.versionId))!;
  const media = signGuestMediaToken(ctx.config.jwtSecret, row.id);
  await shareLinksRepo(ctx.db).touch(row.id, new Date());
  return {
    ...header,
    review: {
      projectName: project.name,
      organizationName: project.organizationName,
      open: isCommentingOpen(project.status),
      version: versionView(version, version.videoPath === project.finalVideoPath, {
        preview: mediaUrl(prefix, media, 'preview'),
        stream: mediaUrl(prefix, media, 'stream'),
        thumbnail: mediaUrl(prefix, media, 'thumbnail'),
      }),
    },
  };
}

/** POST share/{token}/access: the password of a protected link, for a pass (12 hours). */
export async function unlockShare(ctx: AppContext, token: string, password: string): Promise<{ pass: string; expiresIn: number }> {
  const { row } = await openLink(ctx, token, null);
  // A link without a password needs no pass; the same hash work either way, so timing tells nothing.
  const right = row.passwordHash === null ? await verifyAgainstDecoy(password) : await verifySecret(password, row.passwordHash);
  if (!right && row.passwordHash !== null) throw badRequest(SHARE_MESSAGES.passwordWrong, { fields: { password: SHARE_MESSAGES.passwordWrong } });
  return { pass: signSharePass(ctx.config.jwtSecret, row.id), expiresIn: GUEST_PASS_HOURS * 3600 };
}

/** GET share/{token}/comments: the link's version's threads, as a guest sees them. */
export async function guestComments(ctx: AppContext, share: OpenedShare): Promise<CommentList> {
  return listComments(ctx, share.caller, share.project, share.row.versionNumber);
}

/** POST share/{token}/comments: a guest's comment or reply on the link's version. */
export async function guestComment(ctx: AppContext, share: OpenedShare, body: GuestCommentBody): Promise<Comment> {
  return createComment(ctx, share.caller, share.project, { ...body, version: share.row.versionNumber });
}

/**
 * The version a guest media link plays (`g…` tokens, server/review/share-tokens.ts), checked
 * against its link at every request: revoked, expired or no longer the customer's → 404.
 */
export async function guestMediaTarget(ctx: AppContext, token: string) {
  const id = verifyGuestMediaToken(ctx.config.jwtSecret, token);
  const row = id === null ? undefined : await shareLinksRepo(ctx.db).byId(id);
  if (!row) throw notFound();
  const project = await projectsRepo(ctx.db).details(row.projectId);
  if (!project) throw notFound();
  const { versions, review } = await reviewState(ctx, project);
  if (!visibleVersionsFor({ kind: 'guest', link: asShareLink(row, project.id) }, review).includes(row.versionNumber)) throw notFound();
  return { project, version: versions.find((v) => v.id === row.versionId)! };
}
