import type { Db } from '../db/connect.ts';

/** The Log In As trail (issue 36 item 10): one row per impersonation session. */
export function impersonationsRepo(db: Db) {
  return {
    async start(values: { adminId: number; organizationId: number; customerUserId: number; clientAddress: string | null }): Promise<number> {
      const row = await db.insertInto('impersonations').values(values).returning('id').executeTakeFirstOrThrow();
      return row.id;
    },
    /** The session's token expires then (at its start, and again after each refresh of a session not ended). */
    async setExpiry(id: number, expiresAt: Date): Promise<void> {
      await db.updateTable('impersonations').set({ expiresAt }).where('id', '=', id).where('endedAt', 'is', null).execute();
    },
    /** The staff member ended the session; the first end recorded stays. */
    async end(id: number, adminId: number, endedAt: Date): Promise<void> {
      await db.updateTable('impersonations').set({ endedAt }).where('id', '=', id).where('adminId', '=', adminId).where('endedAt', 'is', null).execute();
    },
    /** A page of sessions, newest first, with the names they show. */
    async list(start: number, limit: number) {
      return db
        .selectFrom('impersonations as i')
        .innerJoin('users as staff', 'staff.id', 'i.adminId')
        .innerJoin('organizations as o', 'o.id', 'i.organizationId')
        .leftJoin('users as customer', 'customer.id', 'i.customerUserId')
        .select([
          'i.id',
          'i.adminId',
          'staff.firstName as staffFirstName',
          'staff.lastName as staffLastName',
          'i.organizationId',
          'o.name as organizationName',
          'i.customerUserId',
          'customer.firstName as customerFirstName',
          'customer.lastName as customerLastName',
          'customer.email as customerEmail',
          'i.createdAt',
          'i.endedAt',
          'i.expiresAt',
          'i.clientAddress',
        ])
        .orderBy('i.createdAt', 'desc')
        .orderBy('i.id', 'desc')
        .offset(start)
        .limit(limit)
        .execute();
    },
  };
}
