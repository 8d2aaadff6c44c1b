import { businessDate } from '../../src/domain/business-calendar.ts';
import { pathTo } from '../../src/domain/pages.ts';
import { isReminderDue, isDigestDue, type ReviewMailKind } from '../../src/domain/review-mail.ts';
import { REVIEW_DAY_MS, reviewClosesAt, reviewDaysLeft } from '../../src/domain/review-window.ts';
import { frameToTimecode } from '../../src/domain/timecode.ts';
import type { Db } from '../db/connect.ts';
import { holidaysRepo } from '../repositories/holidays.ts';
import { organizationsRepo } from '../repositories/organizations.ts';
import { projectsRepo } from '../repositories/projects.ts';
import { reviewMailRepo, type DigestComment, type MailRecipient } from '../repositories/review-mail.ts';
import { reviewRepo } from '../repositories/review.ts';
import { changesRequestedMail, commentDigestMail, reviewReminderMail, versionReadyMail, type DigestProject } from './mail-templates.ts';
import type { Mailer, MailMessage } from './mailer.ts';
import { unsubscribeToken } from './review-mail-tokens.ts';

/** What review e-mails need of the context: plain parts, so jobs and tests pass their own. */
export interface ReviewMailDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  /** Signs the unsubscribe links. */
  secret: string;
}

/** Before a version's frame rate is probed, timecodes are shown at the API's assumed 30 fps. */
const rateOf = (row: { frameRateNum: number | null; frameRateDen: number | null }) => ({ num: row.frameRateNum ?? 30, den: row.frameRateDen ?? 1 });
const versionLabel = (n: number) => `v${String(n).padStart(2, '0')}`;
const customerLink = (deps: ReviewMailDeps, projectId: number) => `${deps.publicUrl}${pathTo('project', { id: projectId })}`;
const staffLink = (deps: ReviewMailDeps, projectId: number) => `${deps.publicUrl}${pathTo('staffProject', { id: projectId })}`;
const footer = (deps: ReviewMailDeps, userId: number, kind: ReviewMailKind) => ({
  unsubscribeLink: `${deps.publicUrl}/api/v1/review-mail/unsubscribe?token=${encodeURIComponent(unsubscribeToken(deps.secret, userId, kind))}`,
});

/**
 * Sends `make(user)` to each recipient whose ledger row this call inserted: whichever instance
 * claims first sends, the others skip. A claimed mail whose sending fails is not retried
 * (at most once, never twice: docs/decisions.md).
 */
async function sendOnce(
  deps: ReviewMailDeps,
  recipients: MailRecipient[],
  key: { kind: ReviewMailKind; projectId: number; version: number; day?: string },
  make: (user: MailRecipient) => MailMessage,
): Promise<number> {
  let sent = 0;
  for (const user of recipients) {
    if (!(await reviewMailRepo(deps.db).claim({ ...key, userId: user.id }))) continue;
    await deps.mailer.send(make(user));
    sent += 1;
  }
  return sent;
}

/** Staff sent (or restored) a project to review: its organization's people hear of the version. */
export async function notifyVersionReady(deps: ReviewMailDeps, projectId: number, now = new Date()): Promise<number> {
  const project = await projectsRepo(deps.db).details(projectId);
  if (!project || project.status !== 'IN_REVIEW') return 0;
  const released = (await reviewRepo(deps.db).versions(projectId)).filter((v) => v.releasedAt !== null).at(-1);
  const version = released?.number ?? Math.max(project.noReviews, 1);
  const daysLeft = reviewDaysLeft(project, now);
  const recipients = await reviewMailRepo(deps.db).organizationRecipients(project.organizationId, 'ready');
  return sendOnce(deps, recipients, { kind: 'ready', projectId, version }, (user) =>
    versionReadyMail(
      user.email,
      { projectName: project.name, version: versionLabel(version), daysLeft, link: customerLink(deps, projectId) },
      footer(deps, user.id, 'ready'),
    ),
  );
}

/** A customer requested changes: the assigned editor and every admin get the open comments. */
export async function notifyChangesRequested(deps: ReviewMailDeps, projectId: number): Promise<number> {
  const project = await projectsRepo(deps.db).details(projectId);
  if (!project) return 0;
  const version = (await reviewRepo(deps.db).versions(projectId)).filter((v) => v.releasedAt !== null).at(-1);
  const threads = version ? await reviewMailRepo(deps.db).openThreads(version.id) : [];
  const rate = version ? rateOf(version) : { num: 30, den: 1 };
  const comments = threads.map((t) => ({ timecode: frameToTimecode(t.frame, rate), author: t.authorName, text: t.text }));
  const organization = await organizationsRepo(deps.db).findById(project.organizationId);
  const recipients = await reviewMailRepo(deps.db).editorAndAdmins(project.editorId, 'changes');
  const number = version?.number ?? project.noReviews;
  return sendOnce(deps, recipients, { kind: 'changes', projectId, version: number }, (user) =>
    changesRequestedMail(
      user.email,
      {
        projectName: project.name,
        organizationName: organization?.name ?? 'The customer',
        version: versionLabel(number),
        comments,
        link: staffLink(deps, projectId),
      },
      footer(deps, user.id, 'changes'),
    ),
  );
}

/** The job: one reminder per person when a review window has one review day left. */
export async function sendReviewReminders(deps: ReviewMailDeps, now: Date): Promise<number> {
  let sent = 0;
  for (const project of await reviewMailRepo(deps.db).reviewsClosingSoon(now, REVIEW_DAY_MS)) {
    if (!isReminderDue(project, now)) continue;
    const closesAt = reviewClosesAt(project)!;
    const version = Math.max(project.noReviews, 1);
    const recipients = await reviewMailRepo(deps.db).organizationRecipients(project.organizationId, 'reminder');
    const when = closesAt.toLocaleString('en-US', { timeZone: 'America/New_York', dateStyle: 'medium', timeStyle: 'short' }) + ' (New York time)';
    sent += await sendOnce(deps, recipients, { kind: 'reminder', projectId: project.id, version }, (user) =>
      reviewReminderMail(
        user.email,
        { projectName: project.name, version: versionLabel(version), closesAt: when, link: customerLink(deps, project.id) },
        footer(deps, user.id, 'reminder'),
      ),
    );
  }
  return sent;
}

function groupByProject(deps: ReviewMailDeps, user: MailRecipient, comments: DigestComment[]): DigestProject[] {
  const projects = new Map<number, DigestProject>();
  for (const c of comments) {
    let entry = projects.get(c.projectId);
    if (!entry) {
      entry = { projectName: c.projectName, link: user.organizationId === null ? staffLink(deps, c.projectId) : customerLink(deps, c.projectId), comments: [] };
      projects.set(c.projectId, entry);
    }
    entry.comments.push({ version: versionLabel(c.version), timecode: frameToTimecode(c.frame, rateOf(c)), author: c.authorName, text: c.text });
  }
  return [...projects.values()];
}

/**
 * The job: once a business day (no weekend, no holiday) from 08:00 New York time, each person who wants it gets the new
 * comments they may see since their last digest (their first covers the last day). The day's
 * ledger row is claimed first, so one instance sends it; nothing new, no mail (the row still
 * moves the cursor).
 */
export async function sendCommentDigests(deps: ReviewMailDeps, now: Date): Promise<number> {
  // Business days of the holiday calendar the database has now (issue 36 item 11).
  if (!isDigestDue(now, await holidaysRepo(deps.db).calendar())) return 0;
  const day = businessDate(now);
  const repo = reviewMailRepo(deps.db);
  let sent = 0;
  for (const user of await repo.digestRecipients()) {
    const since = (await repo.digestCursor(user.id)) ?? new Date(now.getTime() - REVIEW_DAY_MS);
    if (since >= now) continue;
    const comments = await repo.digestComments(user, since, now);
    if (!(await repo.claim({ kind: 'digest', userId: user.id, day, coveredUntil: now }))) continue;
    if (comments.length === 0) continue;
    const settingsLink = `${deps.publicUrl}${pathTo(user.organizationId === null ? 'adminSettings' : 'settings')}`;
    await deps.mailer.send(commentDigestMail(user.email, { projects: groupByProject(deps, user, comments), settingsLink }, footer(deps, user.id, 'digest')));
    sent += 1;
  }
  return sent;
}

/**
 * Called by runTransition after a transition commits: the review mails it causes. A failed mail
 * never undoes or fails the transition the person made (it is reported as a process warning).
 */
export async function notifyAfterTransition(deps: ReviewMailDeps, action: string, projectId: number): Promise<void> {
  try {
    if (action === 'send-to-review' || action === 'restore-to-review') await notifyVersionReady(deps, projectId);
    else if (action === 'submit-revision') await notifyChangesRequested(deps, projectId);
  } catch (error) {
    process.emitWarning(`review e-mail after ${action} on project ${projectId} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
