import type { Updateable } from 'kysely';
import { create } from 'superstruct';
import { CreateProjectBodyStruct } from '../../src/domain/contract/projects.ts';
import { CREDIT_MESSAGES } from '../../src/domain/messages.ts';
import { FINAL_PREVIEW_STATES } from '../../src/domain/media.ts';
import { decide, restoreTarget, type ProjectAction } from '../../src/domain/project-rules.ts';
import { PROJECT_STATUSES, type ProjectStatus } from '../../src/domain/project-status.ts';
import { isStaffRole } from '../../src/domain/roles.ts';
import { REVIEW_REFUSAL_STATUS, decideRequestChanges } from '../../src/domain/review-rules.ts';
import { reviewPeriodProblem } from '../../src/domain/review-window.ts';
import { businessMinutesBetween, isSlaRunning } from '../../src/domain/sla-timer.ts';
import { businessToday } from '../../src/domain/business-calendar.ts';
import type { BusinessCalendar } from '../../src/domain/holiday-calendar.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/connect.ts';
import type { ProjectsTable } from '../db/schema.ts';
import { publishChange } from '../events/bus.ts';
import { HttpError, badRequest, conflict } from '../http-error.ts';
import type { AuthContext } from '../plugins/auth.ts';
import { holidaysRepo } from '../repositories/holidays.ts';
import { organizationsRepo } from '../repositories/organizations.ts';
import { projectsRepo, type ProjectDetails } from '../repositories/projects.ts';
import { reviewRepo } from '../repositories/review.ts';
import { usersRepo } from '../repositories/users.ts';
import { requireAllowed } from './project-access.ts';
import { notifyAfterTransition } from './review-notifications.ts';

type Changes = Updateable<ProjectsTable>;

/** 409 when a conditional write found the project in another status than the one read. */
export const changedMeanwhile = () => conflict('The project changed meanwhile. Reload and try again.');

/** The SLA clock stops when a project leaves a running status: remember when. */
function freezeTimer(project: ProjectDetails, now: Date): Changes {
  return isSlaRunning(project.status) ? { pausedAt: now } : {};
}

/**
 * Side effects that do not depend on the row, so a job can apply them to many rows in one
 * set-based UPDATE (the review auto-complete). Each is also its action's SIDE_EFFECTS entry.
 */
const SET_BASED_EFFECTS: Partial<Record<ProjectAction, (now: Date) => Changes>> = {
  approve: () => ({}),
};

/**
 * What each transition changes besides the status (timers, review counters). Paused business
 * minutes are counted on the holiday calendar in force at the time (issue 36 item 11).
 */
const SIDE_EFFECTS: Partial<Record<ProjectAction, (project: ProjectDetails, now: Date, calendar: BusinessCalendar) => Changes>> = {
  'send-to-editing': (_p, now) => ({ latestSubmittedAt: now, pausedAt: null, totalPausedMinutes: 0 }),
  // A revision starts a new 48-hour window.
  // The customer's version is withdrawn until the next one is sent to review.
  'submit-revision': (_p, now) => ({ latestSubmittedAt: now, pausedAt: null, totalPausedMinutes: 0, reviewStartedAt: null, versionReleased: false }),
  approve: (_p, now) => SET_BASED_EFFECTS.approve!(now),
  archive: freezeTimer,
  // Delete remembers the status, Restore returns to it (issue 12); back in a running status, the
  // time spent deleted is not counted, as after a pause.
  hide: (p, now) => ({ ...freezeTimer(p, now), statusBeforeHidden: p.status }),
  restore: (p, now, calendar) => ({
    statusBeforeHidden: null,
    ...(isSlaRunning(restoreTarget(p.statusBeforeHidden)) && p.pausedAt
      ? { pausedAt: null, totalPausedMinutes: p.totalPausedMinutes + businessMinutesBetween(p.pausedAt, now, calendar) }
      : {}),
  }),
  pause: (_p, now) => ({ pausedAt: now }),
  // Paused business minutes are added back, so the timer resumes where it stopped.
  resume: (p, now, calendar) => ({
    pausedAt: null,
    totalPausedMinutes: p.totalPausedMinutes + (p.pausedAt ? businessMinutesBetween(p.pausedAt, now, calendar) : 0),
  }),
  // From here the customer sees this version (src/domain/customer-view.ts).
  'send-to-review': (p, now) => ({ ...freezeTimer(p, now), noReviews: p.noReviews + 1, reviewStartedAt: now, versionReleased: true }),
  // Back in review: the current cut is the customer's to see (a new one delivered after approval too).
  'restore-to-review': (_p, now) => ({ reviewStartedAt: now, versionReleased: true }),
};

/** Runs `action` on `project` through the shared state machine; returns the new details. */
export async function runTransition(
  ctx: AppContext,
  auth: AuthContext,
  project: ProjectDetails,
  action: ProjectAction,
  extra: Changes = {},
): Promise<ProjectDetails> {
  const decision = requireAllowed(action, auth, project);
  const now = new Date();
  const calendar = await holidaysRepo(ctx.db).calendar();
  const changes: Changes = { ...SIDE_EFFECTS[action]?.(project, now, calendar), ...extra, ...(decision.next ? { status: decision.next } : {}) };
  const moved = await ctx.db.transaction().execute(async (tx) => {
    if (!(await projectsRepo(tx).transition(project.id, changes, project.status, now))) return false;
    // The cut sent to review is the customer's review version from now on (frame-accurate review).
    if (RELEASES_VERSION.includes(action)) await reviewRepo(tx).releaseLatest(project.id, now);
    return true;
  });
  if (!moved) throw changedMeanwhile();
  // After the commit: open pages of the project and the staff dashboard read it again (server/events/).
  await publishChange(ctx.db, { type: 'project', projectId: project.id });
  // Issue 13: the review e-mails of this transition (version ready, changes requested).
  await notifyAfterTransition({ db: ctx.db, mailer: ctx.mailer, publicUrl: ctx.config.publicUrl, secret: ctx.config.jwtSecret }, action, project.id);
  return (await projectsRepo(ctx.db).details(project.id))!;
}

/** Transitions that show the latest cut to the customer (they set `versionReleased`). */
const RELEASES_VERSION: readonly ProjectAction[] = ['send-to-review', 'restore-to-review'];

/** A§7 assign editor: `editorId` must be an enabled editor (400 on the field otherwise). */
export async function assignEditor(ctx: AppContext, auth: AuthContext, project: ProjectDetails, editorId: number): Promise<ProjectDetails> {
  const editor = await usersRepo(ctx.db).findEnabledEditor(editorId);
  if (!editor) throw badRequest('Choose an enabled editor.', { fields: { editorId: 'Choose an enabled editor.' } });
  return runTransition(ctx, auth, project, 'assign-editor', { editorId });
}

/** Issue 36: the editor taken off a project being edited; it waits for the next one (its SLA clock runs on). */
export async function unassignEditor(ctx: AppContext, auth: AuthContext, project: ProjectDetails): Promise<ProjectDetails> {
  return runTransition(ctx, auth, project, 'unassign-editor', { editorId: null });
}

/** A§7 review period: checked by the domain's range rule (400 on the field), then a transition like any other. */
export async function setReviewPeriod(ctx: AppContext, auth: AuthContext, project: ProjectDetails, reviewPeriod: number): Promise<ProjectDetails> {
  const problem = reviewPeriodProblem(reviewPeriod);
  if (problem) throw badRequest(problem, { fields: { reviewPeriod: problem } });
  return runTransition(ctx, auth, project, 'set-review-period', { reviewPeriod });
}

/**
 * The system actor: the state machine (src/domain/project-rules.ts) names no system role, so a
 * job acts as the customer would (C§4: a closed review window completes the project "as if
 * the customer approved"). Customer roles the domain accepts for every customer action.
 */
const SYSTEM_AS_ROLE = 'OWNER' as const;

interface SetBasedTransition {
  /** The statuses the action may start from (asked of `decide` for each status). */
  from: ProjectStatus[];
  /** Status and side effects to set on every moved row. */
  changes: Changes & { status: ProjectStatus };
}

/**
 * `action` as the system runs it on many rows at once: where it may start and what it sets,
 * both from the state machine (`decide`) and SIDE_EFFECTS. Throws when the action's target
 * depends on facts of the row or it has row-dependent side effects (not set-based).
 */
export function setBasedTransition(action: ProjectAction, now: Date): SetBasedTransition {
  const effects = SET_BASED_EFFECTS[action];
  if (!effects) throw new Error(`${action} has row-dependent side effects; it cannot run set-based.`);
  const from: ProjectStatus[] = [];
  const targets = new Set<ProjectStatus | null>();
  for (const status of PROJECT_STATUSES) {
    // Every fact that could vary between rows, both ways: the target must not depend on them.
    for (const hasFinalPreview of [false, true]) {
      for (const hasEditor of [false, true]) {
        for (const finalPreview of FINAL_PREVIEW_STATES) {
          const decision = decide(action, SYSTEM_AS_ROLE, { status, hasFinalPreview, hasEditor, finalPreview });
          if (!decision.allowed) continue;
          if (!from.includes(status)) from.push(status);
          targets.add(decision.next);
        }
      }
    }
  }
  const [next, ...others] = [...targets];
  if (!next || others.length > 0) throw new Error(`${action} has no single target status; it cannot run set-based.`);
  return { from, changes: { ...effects(now), status: next } };
}

/** Consumes one active credit of the organization inside `db` (a transaction); false when none is left. */
async function consumeCredit(db: Db, organizationId: number): Promise<boolean> {
  return organizationsRepo(db).consumeCredit(organizationId, businessToday());
}

/**
 * C§2 send to editing: the brief must be complete; one credit is consumed in the same
 * transaction as the status change, so a project never moves without paying, nor pays twice.
 */
export async function sendToEditing(ctx: AppContext, auth: AuthContext, project: ProjectDetails): Promise<ProjectDetails> {
  const decision = requireAllowed('send-to-editing', auth, project);
  try {
    create(
      { name: project.name, audience: project.audience, goal: project.goal, finalVideoLength: project.finalVideoLength, brief: project.brief },
      CreateProjectBodyStruct,
    );
  } catch {
    throw badRequest(CREDIT_MESSAGES.briefIncomplete);
  }
  const now = new Date();
  await ctx.db.transaction().execute(async (tx) => {
    const moved = await projectsRepo(tx).transition(
      project.id,
      { ...SIDE_EFFECTS['send-to-editing']!(project, now, await holidaysRepo(tx).calendar()), status: decision.next! },
      project.status,
      now,
    );
    if (!moved) throw changedMeanwhile();
    if (!(await consumeCredit(tx, project.organizationId))) throw new HttpError(409, CREDIT_MESSAGES.noCredits, { code: 200 });
  });
  await publishChange(ctx.db, { type: 'project', projectId: project.id });
  return (await projectsRepo(ctx.db).details(project.id))!;
}

/**
 * POST projects/{id}/submit, one call with three meanings (C§7, A§7): staff send the edit to
 * review; a customer asks for a revision (IN_REVIEW) or sends the project to editing.
 */
export async function submitProject(ctx: AppContext, auth: AuthContext, project: ProjectDetails): Promise<ProjectDetails> {
  if (isStaffRole(auth.user.role)) return runTransition(ctx, auth, project, 'send-to-review');
  if (project.status === 'IN_REVIEW') {
    requireAllowed('submit-revision', auth, project);
    await requireChangeFeedback(ctx, project);
    return runTransition(ctx, auth, project, 'submit-revision');
  }
  return sendToEditing(ctx, auth, project);
}

/**
 * Issue 13: a change request on a version reviewed frame by frame must say what to change —
 * at least one open thread on the version the customer is reviewing (the page posts a written
 * note as a comment at its first frame before it asks). The rule is the domain's; the server
 * holds it so a direct call cannot send the editor back to work with nothing to do. A project
 * whose cut in review has no version row (none is kept before issue 13's migration) has its
 * feedback on the review link, as the page says.
 */
async function requireChangeFeedback(ctx: AppContext, project: ProjectDetails): Promise<void> {
  const repo = reviewRepo(ctx.db);
  const inReview = (await repo.versions(project.id)).find((version) => version.videoPath === project.finalVideoPath && version.releasedAt !== null);
  if (!inReview) return;
  const decision = decideRequestChanges({ openComments: await repo.countOpenThreads(inReview.id), note: null });
  if (!decision.ok) throw new HttpError(REVIEW_REFUSAL_STATUS[decision.reason], decision.message);
}
