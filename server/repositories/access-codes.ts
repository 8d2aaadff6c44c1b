import type { Db } from '../db/connect.ts';

/** Single-use codes for password recovery and invitations, stored only as hashes. */
export function accessCodesRepo(db: Db) {
  return {
    /** Replaces any unused code of the same purpose, so only the newest link works. */
    async issue(userId: number, purpose: 'recovery' | 'invite', codeHash: string, expiresAt: Date): Promise<void> {
      await db.transaction().execute(async (tx) => {
        await tx.deleteFrom('accessCodes').where('userId', '=', userId).where('purpose', '=', purpose).where('usedAt', 'is', null).execute();
        await tx.insertInto('accessCodes').values({ userId, purpose, codeHash, expiresAt, usedAt: null }).execute();
      });
    },
    async liveCodes(userId: number, now: Date) {
      return db
        .selectFrom('accessCodes')
        .select(['id', 'codeHash', 'purpose'])
        .where('userId', '=', userId)
        .where('usedAt', 'is', null)
        .where('expiresAt', '>', now)
        .execute();
    },
    /** Marks a code used; false when someone else used it first. */
    async consume(id: number, now: Date): Promise<boolean> {
      const result = await db.updateTable('accessCodes').set({ usedAt: now }).where('id', '=', id).where('usedAt', 'is', null).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
