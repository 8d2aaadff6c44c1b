import type { Insertable } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { StorageCredentialsTable } from '../db/schema.ts';

/** Temporary upload credentials of the embedded store (server/storage/upload-credentials.ts). */
export function storageCredentialsRepo(db: Db) {
  return {
    async insert(values: Insertable<StorageCredentialsTable>): Promise<void> {
      await db.insertInto('storageCredentials').values(values).execute();
    },
    /**
     * A credential with what it depends on, as they are now: its user, the impersonating admin
     * (if any), its project and that project's organization (each missing when deleted). One query.
     */
    async withStanding(accessKeyId: string) {
      return db
        .selectFrom('storageCredentials as c')
        .leftJoin('users as u', (join) => join.onRef('u.id', '=', 'c.userId').on('u.deletedAt', 'is', null))
        .leftJoin('users as a', (join) => join.onRef('a.id', '=', 'c.impersonatorId').on('a.deletedAt', 'is', null))
        .leftJoin('projects as p', (join) => join.onRef('p.id', '=', 'c.projectId').on('p.deletedAt', 'is', null))
        .leftJoin('organizations as o', (join) => join.onRef('o.id', '=', 'p.organizationId').on('o.deletedAt', 'is', null))
        .select([
          'c.allowedPrefix',
          'c.expiresAt',
          'c.projectId',
          'c.sessionVersion',
          'c.impersonatorId',
          'c.impersonatorSessionVersion',
          'u.role',
          'u.isEnabled',
          'u.organizationId as userOrganizationId',
          'u.sessionVersion as userSessionVersion',
          'a.role as adminRole',
          'a.isEnabled as adminIsEnabled',
          'a.sessionVersion as adminSessionVersion',
          'p.status',
          'o.id as organizationId',
        ])
        .where('c.accessKeyId', '=', accessKeyId)
        .executeTakeFirst();
    },
  };
}
