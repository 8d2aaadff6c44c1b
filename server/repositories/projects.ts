import { sql, type Insertable, type Updateable } from 'kysely';
import type { ProjectStatus } from '../../src/domain/project-status.ts';
import { slaSortKey } from '../../src/domain/sla-timer.ts';
import type { Db } from '../db/connect.ts';
import type { ProjectsTable } from '../db/schema.ts';

/** One project with the names its pages show: organization, creator, editor, archive flags. */
function detailsQuery(db: Db) {
  return db
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
      sql<number>`(select case when count(*) > 0 and count(*) = count(a.path) then 1 else 0 end from assets a where a.project_id = p.id and a.deleted_at is null)`.as('hasHdArchive'),
      sql<number>`(select case when count(*) > 0 and count(*) = count(a.preview_path) then 1 else 0 end from assets a where a.project_id = p.id and a.deleted_at is null)`.as('hasLowResArchive'),
    ]);
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

export function projectsRepo(db: Db) {
  return {
    async details(id: number): Promise<ProjectDetails | undefined> {
      return detailsQuery(db).where('p.id', '=', id).executeTakeFirst();
    },
    /** One page of the organization's projects in `statuses`, newest first, and how many there are in all. */
    async listForOrganization(organizationId: number, statuses: readonly ProjectStatus[], start: number, limit: number): Promise<{ rows: ProjectDetails[]; total: number }> {
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
    async create(values: Insertable<ProjectsTable>): Promise<number> {
      const row = await db.insertInto('projects').values(values).returning('id').executeTakeFirstOrThrow();
      return row.id;
    },
    /** Recomputes the stored SLA sort keys of projects `ids` (all when omitted) from their timer fields. */
    async refreshSlaKeys(ids?: number[]): Promise<void> {
      let query = db.selectFrom('projects').select(['id', 'status', 'latestSubmittedAt', 'pausedAt', 'totalPausedMinutes']);
      if (ids) query = query.where('id', 'in', ids.length ? ids : [0]);
      const now = new Date();
      for (const row of await query.execute()) {
        const key = slaSortKey(row, now);
        await db.updateTable('projects').set({ slaDeadline: key.deadline, slaFrozen: key.frozen }).where('id', '=', row.id).execute();
      }
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
