import { sql, type RawBuilder } from 'kysely';
import type { DashboardSort } from '../../src/domain/contract/projects.ts';
import { STATUS_WORKFLOW_ORDER, type ProjectStatus } from '../../src/domain/project-status.ts';
import type { BusinessCalendar } from '../../src/domain/holiday-calendar.ts';
import { MS_PER_MINUTE, SLA_MINUTES, businessClock } from '../../src/domain/sla-timer.ts';
import type { Db } from '../db/connect.ts';
import { holidaysRepo } from './holidays.ts';

/** A deleted organization's projects went with it (issue 9): not on any page. */
const LIVE_ORGANIZATION = sql`exists (select 1 from organizations o where o.id = p.organization_id and o.deleted_at is null)`;

/**
 * Where a page of the board starts: an offset (the spec's `start`), or after the last row of
 * the page before (keyset: the sort key and id of that row), which costs the same at any depth.
 */
export type PagePosition<Key> = { start: number } | { after: Key };

/**
 * The timer's keyset: the last running row (its deadline) and the last frozen row (its minutes)
 * a page showed, each with its id; null where no row of that kind was shown yet.
 */
export interface TimerKey {
  running: [deadline: string, id: number] | null;
  frozen: [minutes: string, id: number] | null;
}

/**
 * The ids of one page ordered by timer, as a subquery the page's rows are joined to (one
 * statement per page, issue 14). Running projects are ordered by their stored deadline and frozen
 * ones by their stored minutes, each read from its own partial index (`(sla_deadline, id)`,
 * `(sla_frozen, id)`) and cut at the page's reach, then merged on the minutes each cell shows
 * (⌈(deadline − clock(now)) / 1 min⌉, see businessClock), then the stored key and the id: no
 * per-row expression over the whole table. On equal minutes a running timer goes first in
 * ascending order (it is the one that drops next), so the page is still in order when the cells
 * tick. The merged order keeps each kind in its index order, so a page's rows are a prefix of
 * each kind and the next page continues each kind after its last row shown — exactly, even
 * though a running timer's minutes fall while the user scrolls. Columns: `id`, `frozen` (0
 * running, 1 frozen), `k` (the stored key) and `t` (the minutes shown), to order the page by.
 */
function timerCut(statuses: ProjectStatus[], descending: boolean, position: PagePosition<TimerKey>, limit: number, calendar: BusinessCalendar) {
  const direction = descending ? sql`desc` : sql`asc`;
  const after = descending ? sql`<` : sql`>`;
  const start = 'start' in position ? position.start : 0;
  const reach = start + limit;
  const key = 'after' in position ? position.after : { running: null, frozen: null };
  const clockNow = businessClock(new Date(), calendar);
  const runningAfter = key.running ? sql`and (p.sla_deadline, p.id) ${after} (${key.running[0]}::bigint, ${key.running[1]}::integer)` : sql``;
  const frozenAfter = key.frozen ? sql`and (p.sla_frozen, p.id) ${after} (${key.frozen[0]}::integer, ${key.frozen[1]}::integer)` : sql``;
  return sql<{ id: number; frozen: number; k: string; t: number }>`(
    select id, frozen, k, t from (
      (select p.id, 0 as frozen, p.sla_deadline as k, least(${SLA_MINUTES}, ceil((p.sla_deadline - ${clockNow}) / ${MS_PER_MINUTE}::numeric)) as t from projects p
        where p.sla_deadline is not null and p.status in (${sql.join(statuses)}) and ${LIVE_ORGANIZATION} ${runningAfter}
        order by p.sla_deadline ${direction}, p.id ${direction} limit ${reach})
      union all
      (select p.id, 1 as frozen, p.sla_frozen::bigint as k, p.sla_frozen as t from projects p
        where p.sla_deadline is null and p.status in (${sql.join(statuses)}) and ${LIVE_ORGANIZATION} ${frozenAfter}
        order by p.sla_frozen ${direction}, p.id ${direction} limit ${reach})
    ) merged
    order by t ${direction}, frozen ${direction}, k ${direction}, id ${direction} offset ${start} limit ${limit})`.as('page');
}

/**
 * The SQL that orders each sortable column but the timer. Text by its sort key (issue 36 item 8,
 * src/domain/collation.ts; `COLLATE "C"` on the column): case- and accent-insensitive (A§2),
 * numbers by value. A row written by hand without its key sorts first rather than break paging.
 */
function sortExpression(sort: Exclude<DashboardSort, 'timer'>) {
  switch (sort) {
    case 'name':
      return sql`coalesce(p.name_sort_key, '') collate "C"`;
    case 'organization':
      return sql`coalesce(o.name_sort_key, '') collate "C"`;
    case 'status':
      // Workflow order, not the internal names (issue 12; src/domain/project-status.ts).
      return sql`case p.status ${sql.join(
        STATUS_WORKFLOW_ORDER.map((status, rank) => sql`when ${sql.lit(status)} then ${sql.lit(rank)}`),
        sql` `,
      )} else ${sql.lit(STATUS_WORKFLOW_ORDER.length)} end`;
    case 'version':
      return sql`p.no_reviews`;
    case 'createdAt':
      return sql`p.created_at`;
  }
}

/** The SQL type each sort key is read back as from a page key (kept as text, so nothing is rounded). */
const SORT_KEY_TYPE: Record<Exclude<DashboardSort, 'timer'>, string> = {
  name: 'text',
  organization: 'text',
  status: 'integer',
  version: 'integer',
  createdAt: 'timestamptz',
};

/** The keyset of the other sorts: the last row's sort key (as text) and id. */
export type SortKey = [key: string, id: number];

/** One page of the board: its sort, direction, where it starts and how many rows. */
export type DashboardPage =
  | { sort: 'timer'; descending: boolean; position: PagePosition<TimerKey>; limit: number }
  | { sort: Exclude<DashboardSort, 'timer'>; descending: boolean; position: PagePosition<SortKey>; limit: number };

/** The staff board's rows (A§2) of projects in `statuses` whose organization is live. */
function boardSelect(db: Db, statuses: ProjectStatus[], sortKey: RawBuilder<string>, frozen: RawBuilder<number | null>) {
  return (
    db
      .selectFrom('projects as p')
      .innerJoin('organizations as o', 'o.id', 'p.organizationId')
      .leftJoin('users as e', 'e.id', 'p.editorId')
      .select([
        'p.id',
        'p.name',
        'p.status',
        'p.statusBeforeHidden',
        'p.organizationId',
        'o.name as organizationName',
        'p.editorId',
        'e.firstName as editorFirstName',
        'e.lastName as editorLastName',
        'e.profilePictureUrl as editorPicture',
        'p.createdAt',
        'p.noReviews',
        'p.reviewLink',
        'p.latestSubmittedAt',
        'p.pausedAt',
        'p.totalPausedMinutes',
        // The row's sort key as text (so nothing is rounded), for the page after it; by timer, the
        // stored key of its kind (`frozen`: 0 running, 1 frozen).
        sortKey.as('sortKey'),
        frozen.as('frozen'),
      ])
      .where('p.status', 'in', statuses)
      // A deleted organization's projects went with it (issue 9).
      .where('o.deletedAt', 'is', null)
  );
}

export type DashboardRows = Awaited<ReturnType<ReturnType<typeof boardSelect>['execute']>>;

/**
 * One page of the staff board in one statement (issue 14): its rows in order, and the key of the
 * page after it (null when the page is empty; the caller decides whether it was the last).
 */
export async function dashboardRows(db: Db, statuses: ProjectStatus[], page: DashboardPage): Promise<{ rows: DashboardRows; next: SortKey | TimerKey | null }> {
  const direction = page.descending ? sql`desc` : sql`asc`;
  if (page.sort === 'timer') {
    // The clock now counts on the calendar the stored deadlines were counted on (a calendar edit stores them again).
    const calendar = await holidaysRepo(db).calendar();
    const rows = await boardSelect(db, statuses, sql<string>`page.k::text`, sql<number>`page.frozen`)
      .innerJoin(timerCut(statuses, page.descending, page.position, page.limit, calendar), 'page.id', 'p.id')
      .orderBy(sql`page.t ${direction}, page.frozen ${direction}, page.k ${direction}, page.id ${direction}`)
      .execute();
    const before = 'after' in page.position ? page.position.after : { running: null, frozen: null };
    const last = (frozen: number): [string, number] | null => {
      const row = rows.findLast((r) => Number(r.frozen) === frozen);
      return row ? [row.sortKey, row.id] : null;
    };
    return { rows, next: rows.length === 0 ? null : { running: last(0) ?? before.running, frozen: last(1) ?? before.frozen } };
  }
  const expression = sortExpression(page.sort);
  const ordered = boardSelect(db, statuses, sql<string>`(${expression})::text`, sql<null>`null::integer`)
    .orderBy(sql`${expression} ${direction}, p.id ${direction}`)
    .limit(page.limit);
  let rows: DashboardRows;
  if ('start' in page.position) rows = await ordered.offset(page.position.start).execute();
  else {
    const [key, id] = page.position.after;
    const after = page.descending ? sql`<` : sql`>`;
    rows = await ordered.where(sql<boolean>`(${expression}, p.id) ${after} (cast(${key} as ${sql.raw(SORT_KEY_TYPE[page.sort])}), ${id}::integer)`).execute();
  }
  const last = rows.at(-1);
  return { rows, next: last ? [last.sortKey, last.id] : null };
}

/**
 * The board's version (migration 0017): it moves in the transaction of every write the board
 * shows. The row's `xmin` (the transaction that wrote it) goes with the number, so a row put
 * back by a restore or a copy never matches a version an instance read before. Null when the
 * row is missing (then nothing is answered from memory).
 */
export async function boardVersion(db: Db): Promise<string | null> {
  const { rows } = await sql<{ version: string }>`select version::text || ':' || xmin::text as version from board_version`.execute(db);
  return rows[0]?.version ?? null;
}

/**
 * Moves the board's version in the caller's transaction: for a write the board depends on that
 * writes no watched row (a holiday calendar edit changes the clock running timers are compared
 * with, even when no stored deadline changes).
 */
export async function bumpBoardVersion(db: Db): Promise<void> {
  await sql`update board_version set version = version + 1`.execute(db);
}
