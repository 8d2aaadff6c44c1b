import { sql } from 'kysely';
import { usedSpaceCeiling, type AssetType } from '../../src/domain/uploads.ts';
import { CUSTOMER_VISIBLE } from '../../src/domain/project-rules.ts';
import type { Db } from '../db/connect.ts';
import type { Insertable } from 'kysely';
import type { AssetRow, AssetsTable } from '../db/schema.ts';

/** Assets, upload name reservations and temporary storage credentials. */
export function assetsRepo(db: Db) {
  return {
    /** Records a registered upload. */
    async insert(values: Insertable<AssetsTable>): Promise<AssetRow> {
      return db.insertInto('assets').values(values).returningAll().executeTakeFirstOrThrow();
    },
    /** A live asset by id, of any project (the media pipeline's). */
    async findLiveById(id: number): Promise<AssetRow | undefined> {
      return db.selectFrom('assets').selectAll().where('id', '=', id).where('deletedAt', 'is', null).executeTakeFirst();
    },
    /** An image is its own reduced version: its preview is the object itself, unless one is set. */
    async previewIsItself(id: number, path: string): Promise<void> {
      await db.updateTable('assets').set({ previewPath: path }).where('id', '=', id).where('previewPath', 'is', null).execute();
    },
    /**
     * The proxy made for the asset's object, as long as the asset still holds that object, and on
     * every other live record of the object still without one (a copy made before the proxy was:
     * a duplicate, or a stored copy reused by an upload, issue 35).
     */
    async setPreview(id: number, path: string, previewPath: string): Promise<void> {
      await db
        .updateTable('assets')
        .set({ previewPath })
        .where('path', '=', path)
        .where((eb) => eb.or([eb('id', '=', id), eb.and([eb('previewPath', 'is', null), eb('deletedAt', 'is', null)])]))
        .execute();
    },
    /** The CRC-32 and fingerprint of `path` on every live record of it whose registered size is `size` (duplicates share objects). */
    async setChecksum(path: string, size: number, crc32: number, fingerprint: string): Promise<void> {
      await db.updateTable('assets').set({ crc32, fingerprint }).where('path', '=', path).where('size', '=', size).where('deletedAt', 'is', null).execute();
    },
    /**
     * Issue 35: a live asset of the organization whose stored object has this size, fingerprint
     * and CRC-32 (all three read from the stored bytes by the media worker), the oldest first.
     */
    async findStoredCopy(organizationId: number, size: number, fingerprint: string, crc32?: number): Promise<AssetRow | undefined> {
      let query = db
        .selectFrom('assets')
        .innerJoin('projects', 'projects.id', 'assets.projectId')
        .selectAll('assets')
        .where('projects.organizationId', '=', organizationId)
        // What the organization's people can see: not a deleted or hidden project's files.
        .where('projects.status', 'in', CUSTOMER_VISIBLE)
        .where('assets.fingerprint', '=', fingerprint)
        .where('assets.size', '=', size)
        .where('assets.crc32', 'is not', null)
        .where('assets.deletedAt', 'is', null);
      if (crc32 !== undefined) query = query.where('assets.crc32', '=', crc32);
      return query.orderBy('assets.id').executeTakeFirst();
    },
    /** Copies the live records of one project to another (a duplicate shares the objects). */
    async copyLive(fromProjectId: number, toProjectId: number): Promise<void> {
      const assets = await db
        .selectFrom('assets')
        .select(['name', 'size', 'type', 'path', 'previewPath', 'crc32', 'folder', 'sentCrc32', 'fingerprint'])
        .where('projectId', '=', fromProjectId)
        .where('deletedAt', 'is', null)
        // Shared with a deletion's lock: a record being deleted is waited for, and then not copied.
        .forShare()
        .execute();
      if (assets.length)
        await db
          .insertInto('assets')
          .values(assets.map((a) => ({ ...a, projectId: toProjectId, deletedAt: null })))
          .execute();
    },
    /** Which of `paths` a live record of any project points at. */
    async livePaths(paths: readonly string[]): Promise<string[]> {
      if (paths.length === 0) return [];
      return (await db.selectFrom('assets').select('path').where('path', 'in', paths).where('deletedAt', 'is', null).execute()).map((row) => row.path);
    },
    async list(projectId: number, type?: AssetType): Promise<AssetRow[]> {
      let query = db.selectFrom('assets').selectAll().where('projectId', '=', projectId).where('deletedAt', 'is', null);
      if (type) query = query.where('type', '=', type);
      return query.orderBy('createdAt').orderBy('id').execute();
    },
    async find(projectId: number, id: number): Promise<AssetRow | undefined> {
      return db.selectFrom('assets').selectAll().where('projectId', '=', projectId).where('id', '=', id).where('deletedAt', 'is', null).executeTakeFirst();
    },
    async findByPath(projectId: number, path: string): Promise<AssetRow | undefined> {
      return db.selectFrom('assets').selectAll().where('projectId', '=', projectId).where('path', '=', path).where('deletedAt', 'is', null).executeTakeFirst();
    },
    /** True when a live asset of any project, or a reservation still running, holds `key`. */
    async keyTaken(key: string, now: Date): Promise<boolean> {
      const asset = await db.selectFrom('assets').select('id').where('path', '=', key).where('deletedAt', 'is', null).executeTakeFirst();
      if (asset) return true;
      const reservation = await db.selectFrom('uploadReservations').select('key').where('key', '=', key).where('expiresAt', '>', now).executeTakeFirst();
      return reservation !== undefined;
    },
    /** Reserves `key` unless someone holds it; an expired reservation is taken over. */
    async reserve(key: string, projectId: number, userId: number, expiresAt: Date, now: Date): Promise<boolean> {
      const result = await db
        .insertInto('uploadReservations')
        .values({ key, projectId, userId, expiresAt })
        .onConflict((oc) => oc.column('key').doUpdateSet({ projectId, userId, expiresAt }).where('uploadReservations.expiresAt', '<=', now))
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },
    async release(key: string): Promise<void> {
      await db.deleteFrom('uploadReservations').where('key', '=', key).execute();
    },
    /** Drops what has expired: reservations and temporary credentials. */
    async removeExpired(now: Date): Promise<{ reservations: number; credentials: number }> {
      const reservations = await db.deleteFrom('uploadReservations').where('expiresAt', '<=', now).executeTakeFirst();
      const credentials = await db.deleteFrom('storageCredentials').where('expiresAt', '<=', now).executeTakeFirst();
      return { reservations: Number(reservations.numDeletedRows), credentials: Number(credentials.numDeletedRows) };
    },
    /** Locks every live record of these paths (any project) until the transaction ends. */
    async lockPaths(paths: string[]): Promise<{ id: number; path: string }[]> {
      if (paths.length === 0) return [];
      return db.selectFrom('assets').select(['id', 'path']).where('path', 'in', paths).where('deletedAt', 'is', null).orderBy('id').forUpdate().execute();
    },
    async markDeleted(ids: number[], now: Date): Promise<void> {
      if (ids.length) await db.updateTable('assets').set({ deletedAt: now }).where('id', 'in', ids).execute();
    },
    /**
     * Adds `bytes` to the used space unless that passes the quota (plus the C§5 tolerance);
     * false when it would. The ceiling is src/domain/uploads.ts's `usedSpaceCeiling` of the
     * organization's storage, read under the row lock (the caller's transaction holds it to
     * the end), and the UPDATE is conditional on that same storage and on the ceiling:
     * concurrent calls queue on the row lock and each re-checks against the committed total,
     * so none can overshoot, and a storage changed meanwhile cannot be checked against a
     * stale ceiling.
     */
    async addUsedSpace(organizationId: number, bytes: number): Promise<boolean> {
      const organization = await db.selectFrom('organizations').select('storageTb').where('id', '=', organizationId).forUpdate().executeTakeFirst();
      if (!organization) return false;
      const result = await db
        .updateTable('organizations')
        .set({ usedSpace: sql`used_space + ${bytes}::bigint` })
        .where('id', '=', organizationId)
        .where('storageTb', '=', organization.storageTb)
        .where(sql<boolean>`used_space + ${bytes}::bigint <= ${usedSpaceCeiling(organization.storageTb)}::bigint`)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async freeUsedSpace(organizationId: number, bytes: number): Promise<void> {
      if (bytes > 0)
        await db
          .updateTable('organizations')
          .set({ usedSpace: sql`greatest(used_space - ${bytes}::bigint, 0)` })
          .where('id', '=', organizationId)
          .execute();
    },
  };
}
