import type { Infer } from 'superstruct';
import type { DashboardQueryStruct } from '../../src/domain/contract/projects.ts';
import type { Db } from '../db/connect.ts';
import { boardVersion } from '../repositories/dashboard.ts';
import { dashboardPage } from './dashboard.ts';

type DashboardQuery = Infer<typeof DashboardQueryStruct>;
export type BoardPage = Awaited<ReturnType<typeof dashboardPage>>;

/**
 * A page ordered by timer also reads the clock: where a running timer and a frozen one show the
 * same minutes, their order changes as the running one ticks down. Such a page is answered
 * again for at most this long; pages in any other order depend on the data alone.
 */
export const TIMER_PAGE_MS = 1_000;
/** Pages kept per instance (a page is about 10 KB); the least recently asked goes first. */
const MOST_PAGES = 200;

interface Kept<T> {
  version: string;
  until: number;
  answer: Promise<T>;
}

/** The page a query asks for, whatever the order of its parameters. */
function pageKey(query: DashboardQuery): string {
  const tab = query.hidden ? 'hidden' : query.archived ? 'archived' : 'active';
  return JSON.stringify([tab, query.sort ?? 'createdAt', query.order ?? 'asc', query.limit ?? null, query.start ?? null, query.after ?? null]);
}

/**
 * The staff board's pages, answered from memory while the board is unchanged (issue 14, "API
 * hot path": every staff member sees the same board, and reading it was two thirds of a
 * dashboard request's CPU). Each request still reads the board's version, in its own snapshot,
 * after it arrived (migration 0017 bumps it in the transaction of every write the board shows):
 * a page is reused only when no such write has committed since it was read, so an answer never
 * misses a write made before the request, on this instance or any other. A page is read under
 * the version seen before its statement, so it is at least that recent. Requests that miss at
 * once share one read. What is kept is the page as `prepare` made it for sending (serialized and
 * compressed once, server/prepared-answer.ts).
 */
export function boardPages<T>(now: () => number = Date.now) {
  const pages = new Map<string, Kept<T>>();
  let seen: string | null = null;
  return {
    async page(db: Db, query: DashboardQuery, prepare: (page: BoardPage) => T): Promise<{ answer: T; fromMemory: boolean }> {
      const version = await boardVersion(db);
      // Every page kept is of an older board now: let them go at once.
      if (version !== seen) pages.clear();
      seen = version;
      const key = pageKey(query);
      const kept = pages.get(key);
      if (kept && kept.version === version && now() < kept.until) {
        // Most recently asked last, so the oldest is the one dropped.
        pages.delete(key);
        pages.set(key, kept);
        return { answer: await kept.answer, fromMemory: true };
      }
      const until = (query.sort ?? 'createdAt') === 'timer' ? now() + TIMER_PAGE_MS : Infinity;
      const answer = dashboardPage(db, query).then(prepare);
      pages.set(key, { version, until, answer });
      if (pages.size > MOST_PAGES) pages.delete(pages.keys().next().value!);
      // A refused query (a bad cursor) or a failed read is not kept: the next request tries again.
      answer.catch(() => {
        if (pages.get(key)?.answer === answer) pages.delete(key);
      });
      return { answer: await answer, fromMemory: false };
    },
  };
}
