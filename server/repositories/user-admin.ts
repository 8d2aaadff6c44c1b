import type { ProjectStatus } from '../../src/domain/project-status.ts';
import type { RoleName } from '../../src/domain/roles.ts';
import type { Db } from '../db/connect.ts';
import type { UserRow } from '../db/schema.ts';

/** Projects that no longer hold their editor: deleted ones (A§2 shows HIDDEN as DELETED). */
const GONE: ProjectStatus[] = ['DELETED', 'HIDDEN'];

/** Lists and changes of users for the settings pages; deleted users never appear. */
export function userAdminRepo(db: Db) {
  const live = () => db.selectFrom('users').selectAll().where('deletedAt', 'is', null);
  return {
    async listByOrganization(organizationId: number, start: number, limit: number): Promise<UserRow[]> {
      return live().where('organizationId', '=', organizationId).orderBy('createdAt', 'asc').orderBy('id', 'asc').offset(start).limit(limit).execute();
    },
    /** Newest first, so a user just added is on the first page. */
    async listByRoles(roles: readonly RoleName[], start: number, limit: number): Promise<UserRow[]> {
      return live().where('role', 'in', roles).orderBy('createdAt', 'desc').orderBy('id', 'desc').offset(start).limit(limit).execute();
    },
    /** Owners of organizations without a subscription (renewableAt null): the trial users. */
    async trialOwners(start: number, limit: number) {
      return db
        .selectFrom('users as u')
        .innerJoin('organizations as o', 'o.id', 'u.organizationId')
        .where('u.role', '=', 'OWNER')
        .where('u.deletedAt', 'is', null)
        .where('o.deletedAt', 'is', null)
        .where('o.renewableAt', 'is', null)
        .select([
          'u.id',
          'u.email',
          'u.firstName',
          'u.lastName',
          'o.id as organizationId',
          'o.name as organizationName',
          'o.createdAt as organizationCreatedAt',
        ])
        .orderBy('o.createdAt', 'desc')
        .orderBy('o.id', 'desc')
        .offset(start)
        .limit(limit)
        .execute();
    },
    async softDelete(id: number, now: Date): Promise<void> {
      // The session version goes up too, so a token kept from before cannot outlive the account.
      await db
        .updateTable('users')
        .set((eb) => ({ deletedAt: now, sessionVersion: eb('sessionVersion', '+', 1) }))
        .where('id', '=', id)
        .execute();
    },
    /** A§8: an editor with assigned projects that are not deleted cannot be deleted. */
    async editorHasProjects(editorId: number): Promise<boolean> {
      const row = await db
        .selectFrom('projects')
        .select('id')
        .where('editorId', '=', editorId)
        .where('deletedAt', 'is', null)
        .where('status', 'not in', GONE)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
