import { sql, type Expression, type Insertable, type SqlBool, type Updateable } from 'kysely';
import type { ProjectStatus } from '../../src/domain/project-status.ts';
import { slaSortKey, type SlaInput } from '../../src/domain/sla-timer.ts';
import type { Db } from '../db/connect.ts';
import type { ProjectsTable } from '../db/schema.ts';
import { holidaysRepo } from './holidays.ts';

/** One project with the names its pages show: organization, creator, editor, archive flags. */
function detailsQuery(db: Db) {
  return (
    db
      .selectFrom('projects as p')
      .innerJoin('organizations as o', 'o.id', 'p.organizationId')
      // A deleted organization's projects go with it, for staff too (issue 9).
      .where('o.deletedAt', 'is', null)
      .innerJoin('users as u', 'u.id', 'p.userId')
      .leftJoin('users as e', 'e.id', 'p.editorId')
      .selectAll('p')
      .select([
        'o.name as organizationName',
        'u.firstName as userFirstName',
        'u.lastName as userLastName',
        'u.profilePictureUrl as userPicture',
        'e.firstName as editorFirstName',
        'e.lastName as editorLastName',
        'e.profilePictureUrl as editorPicture',
        // 1 when every asset's original (HD) / reduced proxy (low-res) exists; 0 with no assets.
        sql<number>`(select case when count(*) > 0 and count(*) = count(a.path) then 1 else 0 end from assets a where a.project_id = p.id and a.deleted_at is null)`.as(
          'hasHdArchive',
        ),
        sql<number>`(select case when count(*) > 0 and count(*) = count(a.preview_path) then 1 else 0 end from assets a where a.project_id = p.id and a.deleted_at is null)`.as(
          'hasLowResArchive',
        ),
        // The latest live job making the current final video's preview (issue 36: send to review waits for it).
        sql<
          string | null
        >`(select j.status from media_jobs j where j.project_id = p.id and j.kind = 'final.preview' and j.asset_id is null and j.source_key = p.final_video_path and j.status <> 'cancelled' order by j.id desc limit 1)`.as(
          'finalPreviewJob',
        ),
      ])
  );
}

/** Columns a new (or duplicated) project starts without: no editor, timers, links or deliverable. */
export const NEW_PROJECT_BLANKS = {
  editorId: null,
  pausedAt: null,
  latestSubmittedAt: null,
  reviewStartedAt: null,
  reviewLink: null,
  collaborationLink: null,
  editorAssetsLink: null,
  hdUrl: null,
  lowResUrl: null,
  finalVideoThumbnail: null,
  finalVideoPreview: null,
  finalVideoPath: null,
  finalVideoSize: null,
  deletedAt: null,
} as const;

export type ProjectDetails = NonNullable<Awaited<ReturnType<ReturnType<typeof detailsQuery>['executeTakeFirst']>>>;

/** The timer columns the SLA sort keys are computed from. */
const SLA_INPUT_COLUMNS = ['id', 'status', 'latestSubmittedAt', 'pausedAt', 'totalPausedMinutes'] as const;

/** Runs `work` in `db`'s transaction when it is one, else in a new transaction. */
function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/**
 * Stores the SLA sort keys computed by the domain from each row's timer fields (inside the
 * caller's transaction), on the holiday calendar the database has now.
 */
async function storeSlaKeys(db: Db, rows: readonly (SlaInput & { id: number })[], now: Date): Promise<void> {
  if (rows.length === 0) return;
  const calendar = await holidaysRepo(db).calendar();
  for (const row of rows) {
    const key = slaSortKey(row, now, calendar);
    await db.updateTable('projects').set({ slaDeadline: key.deadline, slaFrozen: key.frozen }).where('id', '=', row.id).execute();
  }
}

/** Projects whose review window (`review_period` days of `dayMs` from `review_started_at`) has closed at `now`. */
export function reviewWindowClosed(now: Date, dayMs: number) {
  return sql<boolean>`review_period > 0 and review_started_at is not null and review_started_at + review_period * (${dayMs}::double precision * interval '1 millisecond') <= ${now}`;
}

export function projectsRepo(db: Db) {
  return {
    async details(id: number): Promise<ProjectDetails | undefined> {
      return detailsQuery(db).where('p.id', '=', id).executeTakeFirst();
    },
    /** One page of the organization's projects in `statuses`, newest first, and how many there are in all. */
    async listForOrganization(
      organizationId: number,
      statuses: readonly ProjectStatus[],
      start: number,
      limit: number,
    ): Promise<{ rows: ProjectDetails[]; total: number }> {
      if (statuses.length === 0) return { rows: [], total: 0 };
      const rows = await detailsQuery(db)
        .where('p.organizationId', '=', organizationId)
        .where('p.status', 'in', statuses)
        .orderBy('p.createdAt', 'desc')
        .orderBy('p.id', 'desc')
        .offset(start)
        .limit(limit)
        .execute();
      const counted = await db
        .selectFrom('projects as p')
        .innerJoin('organizations as o', 'o.id', 'p.organizationId')
        .where('o.deletedAt', 'is', null)
        .where('p.organizationId', '=', organizationId)
        .where('p.status', 'in', statuses)
        .select((eb) => eb.fn.countAll<string | number>().as('count'))
        .executeTakeFirstOrThrow();
      return { rows, total: Number(counted.count) };
    },
    /** The review period a new project of the organization starts with. */
    async organizationReviewPeriod(organizationId: number): Promise<number> {
      const organization = await db.selectFrom('organizations').select('projectReviewPeriod').where('id', '=', organizationId).executeTakeFirstOrThrow();
      return organization.projectReviewPeriod;
    },
    /** The project's current final video (undefined for no such project). */
    async finalVideoPath(id: number): Promise<{ finalVideoPath: string | null } | undefined> {
      return db.selectFrom('projects').select('finalVideoPath').where('id', '=', id).executeTakeFirst();
    },
    /** Records pieces made from the final video `sourceKey`, as long as it is still the project's final video. */
    async setFinalVideoPieces(id: number, sourceKey: string, pieces: { finalVideoThumbnail?: string; hdUrl?: string; lowResUrl?: string }): Promise<void> {
      await db.updateTable('projects').set(pieces).where('id', '=', id).where('finalVideoPath', '=', sourceKey).execute();
    },
    /** Which of `paths` is a project's final video. */
    async finalVideoPaths(paths: readonly string[]): Promise<string[]> {
      if (paths.length === 0) return [];
      return (await db.selectFrom('projects').select('finalVideoPath').where('finalVideoPath', 'in', paths).execute()).flatMap((row) =>
        row.finalVideoPath ? [row.finalVideoPath] : [],
      );
    },
    async create(values: Insertable<ProjectsTable>): Promise<number> {
      const row = await db.insertInto('projects').values(values).returning('id').executeTakeFirstOrThrow();
      return row.id;
    },
    /** Recomputes the stored SLA sort keys of projects `ids` (all when omitted) from their timer fields. */
    async refreshSlaKeys(ids?: number[]): Promise<void> {
      let query = db.selectFrom('projects').select(SLA_INPUT_COLUMNS);
      if (ids) query = query.where('id', 'in', ids.length ? ids : [0]);
      await storeSlaKeys(db, await query.execute(), new Date());
    },
    /**
     * In a holiday calendar edit's transaction, after the edit: locks every project with a timer
     * (a transition under way finishes first, and one after waits for the edit), then stores again
     * the keys that the edited calendar changes. Returns how many changed.
     */
    async storeSlaKeysAfterCalendarEdit(now: Date): Promise<number> {
      const rows = await db
        .selectFrom('projects')
        .select([...SLA_INPUT_COLUMNS, 'slaDeadline', 'slaFrozen'])
        .where('latestSubmittedAt', 'is not', null)
        .forUpdate()
        .execute();
      // Read after the locks: a concurrent edit's rows are then committed and seen.
      const calendar = await holidaysRepo(db).calendar();
      let changed = 0;
      for (const row of rows) {
        const key = slaSortKey(row, now, calendar);
        if (String(key.deadline) === String(row.slaDeadline) && key.frozen === row.slaFrozen) continue;
        await db.updateTable('projects').set({ slaDeadline: key.deadline, slaFrozen: key.frozen }).where('id', '=', row.id).execute();
        changed += 1;
      }
      return changed;
    },
    /**
     * A status change: applies `changes` only if the project is still in `expected` status and
     * stores its SLA sort keys in the same transaction, so no reader sees the new status with
     * the old keys. False when the status moved meanwhile.
     */
    async transition(id: number, changes: Updateable<ProjectsTable>, expected: ProjectStatus, now: Date): Promise<boolean> {
      return inTransaction(db, async (tx) => {
        const row = await tx
          .updateTable('projects')
          .set(changes)
          .where('id', '=', id)
          .where('status', '=', expected)
          .returning(SLA_INPUT_COLUMNS)
          .executeTakeFirst();
        if (!row) return false;
        await storeSlaKeys(tx, [row], now);
        return true;
      });
    },
    /**
     * The set-based form for jobs: moves every project in `from` that `condition` selects to
     * `changes` (one conditional UPDATE, so concurrent runs move each row once) and stores the
     * moved rows' SLA keys in the same transaction. Returns the ids of the projects it moved.
     */
    async transitionWhere(from: readonly ProjectStatus[], changes: Updateable<ProjectsTable>, condition: Expression<SqlBool>, now: Date): Promise<number[]> {
      if (from.length === 0) return [];
      return inTransaction(db, async (tx) => {
        const moved = await tx.updateTable('projects').set(changes).where('status', 'in', from).where(condition).returning(SLA_INPUT_COLUMNS).execute();
        await storeSlaKeys(tx, moved, now);
        return moved.map((row) => row.id);
      });
    },
    /**
     * Applies `changes` only if the project is still in `expected` status: two racing
     * transitions cannot both win. False when the status moved meanwhile.
     */
    async update(id: number, changes: Updateable<ProjectsTable>, expected?: ProjectStatus): Promise<boolean> {
      let query = db.updateTable('projects').set(changes).where('id', '=', id);
      if (expected) query = query.where('status', '=', expected);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
