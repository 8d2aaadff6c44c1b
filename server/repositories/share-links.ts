import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { ReviewShareLinkRow } from '../db/schema.ts';

/** A share link with what its list and its guest page show: the version's number, who made it, the guests' comments. */
export type ShareLinkListing = ReviewShareLinkRow & { versionNumber: number; createdByName: string | null; guestComments: number };

export interface NewShareLink {
  projectId: number;
  versionId: number;
  salt: string;
  passwordHash: string | null;
  expiresAt: Date;
  createdBy: number;
}

export function shareLinksRepo(db: Db) {
  const listing = () =>
    db
      .selectFrom('reviewShareLinks as l')
      .innerJoin('projectVersions as v', 'v.id', 'l.versionId')
      .leftJoin('users as u', 'u.id', 'l.createdBy')
      .selectAll('l')
      .select((eb) => [
        'v.number as versionNumber',
        sql<string | null>`nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '')`.as('createdByName'),
        eb
          .selectFrom('reviewComments as c')
          .select((c) => c.fn.countAll<string>().as('n'))
          .whereRef('c.shareLinkId', '=', 'l.id')
          .where('c.deletedAt', 'is', null)
          .as('guestComments'),
      ]);
  const normalized = (row: Omit<ShareLinkListing, 'guestComments'> & { guestComments: string | number | null }): ShareLinkListing => ({
    ...row,
    guestComments: Number(row.guestComments ?? 0),
  });

  return {
    async insert(link: NewShareLink): Promise<ReviewShareLinkRow> {
      return db.insertInto('reviewShareLinks').values(link).returningAll().executeTakeFirstOrThrow();
    },

    /** The project's links, newest first. */
    async listByProject(projectId: number): Promise<ShareLinkListing[]> {
      const rows = await listing().where('l.projectId', '=', projectId).orderBy('l.id', 'desc').execute();
      return rows.map(normalized);
    },

    async byId(id: number): Promise<ShareLinkListing | undefined> {
      const row = await listing().where('l.id', '=', id).executeTakeFirst();
      return row && normalized(row);
    },

    /** Links of the project neither revoked nor expired at `now`. */
    async countActive(projectId: number, now: Date): Promise<number> {
      const row = await db
        .selectFrom('reviewShareLinks')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('projectId', '=', projectId)
        .where('revokedAt', 'is', null)
        .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', now)]))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Revokes a link of the project (once: a second call keeps the first time); false when there is none. */
    async revoke(projectId: number, id: number, now: Date): Promise<boolean> {
      const result = await db
        .updateTable('reviewShareLinks')
        .set({ revokedAt: sql`coalesce(revoked_at, ${now})` })
        .where('projectId', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** When a guest last opened the link (the owner's list shows it); at most one write a minute per link. */
    async touch(id: number, now: Date): Promise<void> {
      await db
        .updateTable('reviewShareLinks')
        .set({ lastUsedAt: now })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('lastUsedAt', 'is', null), eb('lastUsedAt', '<', new Date(now.getTime() - 60_000))]))
        .execute();
    },
  };
}
