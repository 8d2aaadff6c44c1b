import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { CreditsRow, OrganizationRow } from '../db/schema.ts';

export function organizationsRepo(db: Db) {
  return {
    /** Uses one active credit (C§2 send to editing) when one is left on `today`; false otherwise. */
    async consumeCredit(organizationId: number, today: string): Promise<boolean> {
      const result = await db
        .updateTable('credits')
        .set((eb) => ({ usedCredits: eb('usedCredits', '+', 1) }))
        .where('organizationId', '=', organizationId)
        .whereRef('usedCredits', '<', 'activeCredits')
        .where('startDate', '<=', today)
        .where('endDate', '>=', today)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async findById(id: number): Promise<OrganizationRow | undefined> {
      return db.selectFrom('organizations').selectAll().where('id', '=', id).where('deletedAt', 'is', null).executeTakeFirst();
    },
    async nameTaken(name: string): Promise<boolean> {
      const row = await db
        .selectFrom('organizations')
        .select('id')
        .where(sql`lower(name)`, '=', name.trim().toLowerCase())
        .where('deletedAt', 'is', null)
        .executeTakeFirst();
      return row !== undefined;
    },
    /**
     * Creates the organization with an empty credits row and makes `ownerId` its owner.
     * Undefined when the owner already has an organization: the owner's row is locked first,
     * so parallel calls by one owner queue on it and only the first creates one (issue 9).
     */
    async createWithOwner(name: string, ownerId: number): Promise<OrganizationRow | undefined> {
      return db.transaction().execute(async (tx) => {
        const owner = await tx.selectFrom('users').select('organizationId').where('id', '=', ownerId).forUpdate().executeTakeFirst();
        if (!owner || owner.organizationId !== null) return undefined;
        const organization = await tx.insertInto('organizations').values({ name: name.trim() }).returningAll().executeTakeFirstOrThrow();
        await tx.insertInto('credits').values({ organizationId: organization.id, startDate: null, endDate: null, renewDate: null }).execute();
        await tx.updateTable('users').set({ organizationId: organization.id, role: 'OWNER' }).where('id', '=', ownerId).execute();
        return organization;
      });
    },
    async credits(organizationId: number): Promise<CreditsRow | undefined> {
      return db.selectFrom('credits').selectAll().where('organizationId', '=', organizationId).executeTakeFirst();
    },
  };
}
