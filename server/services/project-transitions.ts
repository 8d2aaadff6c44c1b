import type { Updateable } from 'kysely';
import { create } from 'superstruct';
import { CreateProjectBodyStruct } from '../../src/domain/contract/projects.ts';
import { CREDIT_MESSAGES } from '../../src/domain/messages.ts';
import type { ProjectAction } from '../../src/domain/project-rules.ts';
import { businessMinutesBetween, isSlaRunning } from '../../src/domain/sla-timer.ts';
import { businessToday } from '../../src/domain/business-calendar.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/connect.ts';
import type { ProjectsTable } from '../db/schema.ts';
import { HttpError, badRequest, conflict } from '../http-error.ts';
import type { AuthContext } from '../plugins/auth.ts';
import { projectsRepo, type ProjectDetails } from '../repositories/projects.ts';
import { requireAllowed } from './project-access.ts';

type Changes = Updateable<ProjectsTable>;

const changedMeanwhile = () => conflict('The project changed meanwhile. Reload and try again.');

/** The SLA clock stops when a project leaves a running status: remember when. */
function freezeTimer(project: ProjectDetails, now: Date): Changes {
  return isSlaRunning(project.status) ? { pausedAt: now } : {};
}

/** What each transition changes besides the status (timers, review counters). */
const SIDE_EFFECTS: Partial<Record<ProjectAction, (project: ProjectDetails, now: Date) => Changes>> = {
  'send-to-editing': (_p, now) => ({ latestSubmittedAt: now, pausedAt: null, totalPausedMinutes: 0 }),
  // A revision starts a new 48-hour window.
  // The customer's version is withdrawn until the next one is sent to review.
  'submit-revision': (_p, now) => ({ latestSubmittedAt: now, pausedAt: null, totalPausedMinutes: 0, reviewStartedAt: null, versionReleased: false }),
  approve: () => ({}),
  archive: freezeTimer,
  hide: freezeTimer,
  restore: () => ({}),
  pause: (_p, now) => ({ pausedAt: now }),
  // Paused business minutes are added back, so the timer resumes where it stopped.
  resume: (p, now) => ({ pausedAt: null, totalPausedMinutes: p.totalPausedMinutes + (p.pausedAt ? businessMinutesBetween(p.pausedAt, now) : 0) }),
  // From here the customer sees this version (src/domain/customer-view.ts).
  'send-to-review': (p, now) => ({ ...freezeTimer(p, now), noReviews: p.noReviews + 1, reviewStartedAt: now, versionReleased: true }),
  // Back in review: the current cut is the customer's to see (a new one delivered after approval too).
  'restore-to-review': (_p, now) => ({ reviewStartedAt: now, versionReleased: true }),
};

/** Runs `action` on `project` through the shared state machine; returns the new details. */
export async function runTransition(ctx: AppContext, auth: AuthContext, project: ProjectDetails, action: ProjectAction, extra: Changes = {}): Promise<ProjectDetails> {
  const decision = requireAllowed(action, auth, project);
  const now = new Date();
  const changes: Changes = { ...SIDE_EFFECTS[action]?.(project, now), ...extra, ...(decision.next ? { status: decision.next } : {}) };
  const repo = projectsRepo(ctx.db);
  if (!(await repo.update(project.id, changes, project.status))) throw changedMeanwhile();
  await repo.refreshSlaKeys([project.id]);
  return (await repo.details(project.id))!;
}

/** Consumes one active credit of the organization inside `db` (a transaction); false when none is left. */
async function consumeCredit(db: Db, organizationId: number): Promise<boolean> {
  const today = businessToday();
  const result = await db
    .updateTable('credits')
    .set((eb) => ({ usedCredits: eb('usedCredits', '+', 1) }))
    .where('organizationId', '=', organizationId)
    .whereRef('usedCredits', '<', 'activeCredits')
    .where('startDate', '<=', today)
    .where('endDate', '>=', today)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * C§2 send to editing: the brief must be complete; one credit is consumed in the same
 * transaction as the status change, so a project never moves without paying, nor pays twice.
 */
export async function sendToEditing(ctx: AppContext, auth: AuthContext, project: ProjectDetails): Promise<ProjectDetails> {
  const decision = requireAllowed('send-to-editing', auth, project);
  try {
    create({ name: project.name, audience: project.audience, goal: project.goal, finalVideoLength: project.finalVideoLength, brief: project.brief }, CreateProjectBodyStruct);
  } catch {
    throw badRequest(CREDIT_MESSAGES.briefIncomplete);
  }
  const now = new Date();
  await ctx.db.transaction().execute(async (tx) => {
    const moved = await projectsRepo(tx).update(project.id, { ...SIDE_EFFECTS['send-to-editing']!(project, now), status: decision.next! }, project.status);
    if (!moved) throw changedMeanwhile();
    if (!(await consumeCredit(tx, project.organizationId))) throw new HttpError(409, CREDIT_MESSAGES.noCredits, { code: 200 });
    await projectsRepo(tx).refreshSlaKeys([project.id]);
  });
  return (await projectsRepo(ctx.db).details(project.id))!;
}
