import { REVIEW_DAY_MS } from '../../src/domain/review-window.ts';
import type { Db } from '../db/connect.ts';
import { publishChange } from '../events/bus.ts';
import { projectsRepo, reviewWindowClosed } from '../repositories/projects.ts';
import { setBasedTransition } from './project-transitions.ts';

/**
 * C§4: a project whose review window closed is completed through the state machine's
 * 'approve' (its `from` statuses, its `next` and its side effects, run as the customer would:
 * the domain has no system actor). One conditional UPDATE with the condition in its WHERE,
 * so any number of instances may run it at once without harm; the moved rows' SLA sort keys
 * are stored in the same transaction. The window is src/domain/review-window.ts's
 * (`reviewClosesAt`: the start plus `reviewPeriod` review days of REVIEW_DAY_MS each, passed
 * in — never the database's calendar `interval '1 day'`, which follows the session's time
 * zone across daylight-saving changes). Returns how many projects this run completed.
 */
export async function completeClosedReviews(db: Db, now = new Date()): Promise<number> {
  const approve = setBasedTransition('approve', now);
  const moved = await projectsRepo(db).transitionWhere(approve.from, approve.changes, reviewWindowClosed(now, REVIEW_DAY_MS), now);
  // After the commit, like every transition: open pages of each project and the staff dashboard
  // show it approved without a reload (server/events/). Only the run that moved a row tells.
  for (const projectId of moved) await publishChange(db, { type: 'project', projectId });
  return moved.length;
}
