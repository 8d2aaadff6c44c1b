import type { Infer } from 'superstruct';
import type { DashboardQueryStruct } from '../../src/domain/contract/projects.ts';
import type { Db } from '../db/connect.ts';
import { boardVersion } from '../repositories/dashboard.ts';
import { boardQueryScope, dashboardPage } from './dashboard.ts';
import type { RememberedRows } from './remembered-rows.ts';

type DashboardQuery = Infer<typeof DashboardQueryStruct>;
export type BoardPage = Awaited<ReturnType<typeof dashboardPage>>;

/**
 * A page ordered by timer also reads the clock: where a running timer and a frozen one show the
 * same minutes, their order changes as the running one ticks down. Such a page is answered
 * again for at most this long; pages in any other order depend on the data alone.
 */
export const TIMER_PAGE_MS = 1_000;
/**
 * A page in any other order is read again after this long whatever the version says: a backstop
 * for writes made with the database's triggers off (a restore with `--disable-triggers`, a tool
 * under `session_replication_role = replica`), which do not move the version.
 */
export const OTHER_PAGE_MS = 60_000;
/** Pages kept per instance (a page is about 10 KB); the least recently asked goes first. */
const MOST_PAGES = 200;

interface Kept<T> {
  version: string;
  /** Answered from memory until then; while the read is under way, requests share it whatever the time. */
  until: number;
  answer: Promise<T>;
}

/** The page a query asks for, whatever the order of its parameters and whichever defaults it spells out. */
function pageKey(query: DashboardQuery): string {
  const { tab, sort, order, limit } = boardQueryScope(query);
  return JSON.stringify([tab, sort, order, limit, query.start ?? null, query.after ?? null]);
}

/**
 * The staff board's pages, answered from memory while the board is unchanged (issue 14, "API
 * hot path": every staff member sees the same board, and reading it was two thirds of a
 * dashboard request's CPU). Each request still knows the board's version after it arrived
 * (migration 0017 bumps it in the transaction of every write the board shows), read in its own
 * snapshot or from the instance's memory, which the version's change notice drops (issue 34,
 * server/services/remembered-rows.ts): a page is reused only when no such write has committed
 * since it was read, so an answer never misses a write made before the request. A page is read under
 * the version seen before its statement, so it is at least that recent. Requests that miss at
 * once share one read; a page's time (TIMER_PAGE_MS, OTHER_PAGE_MS) counts from when its read
 * ended. What is kept is the page as `prepare` made it for sending (serialized and compressed
 * once, server/prepared-answer.ts).
 */
export function boardPages<T>(now: () => number = Date.now) {
  const pages = new Map<string, Kept<T>>();
  let seen: string | null = null;
  return {
    /** `remembered`: the instance's memory of the version (issue 34), else it is read on every request. */
    async page(db: Db, query: DashboardQuery, prepare: (page: BoardPage) => T, remembered?: RememberedRows): Promise<{ answer: T; fromMemory: boolean }> {
      const version = remembered ? await remembered.boardVersion(() => boardVersion(db)) : await boardVersion(db);
      // No version to go by (its row is missing): every request reads the page.
      if (version === null) return { answer: prepare(await dashboardPage(db, query)), fromMemory: false };
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
      const answer = dashboardPage(db, query).then(prepare);
      const entry: Kept<T> = { version, until: Infinity, answer };
      pages.delete(key);
      pages.set(key, entry);
      if (pages.size > MOST_PAGES) pages.delete(pages.keys().next().value!);
      answer.then(
        () => {
          entry.until = now() + (boardQueryScope(query).sort === 'timer' ? TIMER_PAGE_MS : OTHER_PAGE_MS);
        },
        // A refused query (a bad cursor) or a failed read is not kept: the next request tries again.
        () => {
          if (pages.get(key) === entry) pages.delete(key);
        },
      );
      return { answer: await answer, fromMemory: false };
    },
  };
}
