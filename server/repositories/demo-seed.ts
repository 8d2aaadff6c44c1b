import { sql, type Insertable } from 'kysely';
import type { ProjectStatus } from '../../src/domain/project-status.ts';
import type { Db } from '../db/connect.ts';
import type { CreditsTable, OrganizationsTable, ProjectsTable, ProjectVersionsTable, ReviewCommentsTable, UsersTable } from '../db/schema.ts';

/**
 * The demo data's rows (server/seed): fixtures written as they are, with their own dates and
 * counters, where the product's repositories would stamp "now" and apply its rules. Only the
 * seeds use it.
 */
export function demoSeedRepo(db: Db) {
  return {
    /** True when the database has no users yet (a first start). */
    async hasNoUsers(): Promise<boolean> {
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      return Number(row.count) === 0;
    },

    /** Held to the end of the transaction: instances started together on one empty database seed it once. */
    async lockSeeding(): Promise<void> {
      await sql`select pg_advisory_xact_lock(hashtext('cutdesk.demo-seed'))`.execute(db);
    },

    // Several rows a statement: on a first start each statement is a round trip to the
    // embedded database's thread, and the seed is on the way to the server's first answer.

    /** The new organizations' ids by name (RETURNING's order is not promised to be VALUES'). */
    async insertOrganizations(values: Insertable<OrganizationsTable>[]): Promise<Map<string, number>> {
      const rows = await db.insertInto('organizations').values(values).returning(['id', 'name']).execute();
      return new Map(rows.map((row) => [row.name, row.id]));
    },

    async insertCredits(values: Insertable<CreditsTable>[]): Promise<void> {
      await db.insertInto('credits').values(values).execute();
    },

    /** The new users' ids by e-mail. */
    async insertUsers(values: Insertable<UsersTable>[]): Promise<Map<string, number>> {
      const rows = await db.insertInto('users').values(values).returning(['id', 'email']).execute();
      return new Map(rows.map((row) => [row.email, row.id]));
    },

    async insertProjects(values: Insertable<ProjectsTable>[]): Promise<void> {
      await db.insertInto('projects').values(values).execute();
    },

    /** The organization's projects of these names and statuses that have no version and no final video yet. */
    async projectsWithoutVersions(organizationName: string, names: string[], statuses: ProjectStatus[]): Promise<{ id: number; name: string }[]> {
      return db
        .selectFrom('projects as p')
        .innerJoin('organizations as o', 'o.id', 'p.organizationId')
        .select(['p.id', 'p.name'])
        .where('o.name', '=', organizationName)
        .where('p.name', 'in', names)
        .where('p.status', 'in', statuses)
        .where('p.deletedAt', 'is', null)
        .where('p.finalVideoPath', 'is', null)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('projectVersions as v').select('v.id').whereRef('v.projectId', '=', 'p.id'))))
        .execute();
    },

    async usersByEmail(emails: string[]) {
      return db.selectFrom('users').select(['id', 'email', 'firstName', 'lastName', 'role']).where('email', 'in', emails).execute();
    },

    /** The project's status and final video, locked to the end of the transaction, and whether it has any version. */
    async lockProjectForVersions(projectId: number): Promise<{ status: ProjectStatus; finalVideoPath: string | null; hasVersion: boolean } | undefined> {
      const project = await db.selectFrom('projects').select(['status', 'finalVideoPath']).where('id', '=', projectId).forUpdate().executeTakeFirst();
      if (!project) return undefined;
      const version = await db.selectFrom('projectVersions').select('id').where('projectId', '=', projectId).limit(1).executeTakeFirst();
      return { ...project, hasVersion: version !== undefined };
    },

    async insertVersion(values: Insertable<ProjectVersionsTable>): Promise<number> {
      return (await db.insertInto('projectVersions').values(values).returning('id').executeTakeFirstOrThrow()).id;
    },

    async insertComment(values: Insertable<ReviewCommentsTable>): Promise<number> {
      return (await db.insertInto('reviewComments').values(values).returning('id').executeTakeFirstOrThrow()).id;
    },

    async setFinalVideo(projectId: number, video: { path: string; size: number; preview: string; reviews: number }): Promise<void> {
      await db
        .updateTable('projects')
        .set({
          finalVideoPath: video.path,
          finalVideoSize: video.size,
          finalVideoPreview: video.preview,
          finalVideoThumbnail: null,
          hdUrl: null,
          lowResUrl: null,
          versionReleased: true,
          noReviews: video.reviews,
        })
        .where('id', '=', projectId)
        .execute();
    },
  };
}
