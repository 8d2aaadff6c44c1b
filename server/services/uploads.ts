import type { FastifyBaseLogger } from 'fastify';
import type { Asset, CheckName, RegisterAssetBody, UploadCredentials } from '../../src/domain/contract/uploads.ts';
import { isCustomerRole } from '../../src/domain/roles.ts';
import {
  ABANDONED_UPLOAD_DAYS,
  CREDENTIALS_LIFETIME_SECONDS,
  UPLOAD_MESSAGES,
  assetFolderPrefix,
  assetKey,
  canDeleteAllAssets,
  nameVariant,
  sanitizeFileName,
  uploadDecision,
  uploadPrefix,
  type AssetType,
  type UploadType,
} from '../../src/domain/uploads.ts';
import { NO_MEMORY_CODE } from '../../src/domain/contract/uploads.ts';
import { cleanFolder } from '../../src/domain/camera-card.ts';
import { derivedKey } from '../../src/domain/media.ts';
import type { SessionClaims } from '../../src/domain/session-standing.ts';
import type { AppContext } from '../context.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { AssetRow } from '../db/schema.ts';
import { HttpError, badRequest, conflict, forbidden } from '../http-error.ts';
import type { AuthContext } from '../plugins/auth.ts';
import { assetsRepo } from '../repositories/assets.ts';
import type { ProjectDetails } from '../repositories/projects.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import { uploadsRefuseOverwrites } from '../storage/upload-credentials.ts';
import { requireAcceptedContent } from './file-content.ts';
import { requireAllowed } from './project-access.ts';

const DAY_MS = 86_400_000;
/** Presigned GETs of the asset lists stay valid this long (a page left open for an afternoon). */
const ASSET_URL_SECONDS = 6 * 3600;
/** A reserved name outlives the longest a multipart upload may stay open. */
const RESERVATION_MS = (ABANDONED_UPLOAD_DAYS + 1) * DAY_MS;
const MAX_NAME_VARIANTS = 1000;

/** C§4 / A§4: may `auth` upload this kind of file to `project`? The server's answer, 403 or 409. */
export function requireUploadAllowed(auth: AuthContext, project: ProjectDetails, uploadType: UploadType): void {
  const decision = uploadDecision(auth.user.role, project.status, uploadType);
  if (!decision.allowed) throw new HttpError(decision.status, decision.message);
}

/** Changing a project's raw files (register, delete) is the customer's, while OPENED (C§4). */
export function requireAssetChange(auth: AuthContext, project: ProjectDetails): void {
  if (!isCustomerRole(auth.user.role)) throw forbidden(UPLOAD_MESSAGES.staffCannotChangeAssets);
  requireAllowed('change-assets', auth, project);
}

/**
 * `session` is the caller's token claims (`request.session`): the credentials are bound to
 * that session and end with it (issue 9), not an hour later. `endpoint` is the S3 endpoint as
 * the browser reaches it (server/storage/setup.ts `browserEndpoint`).
 */
export async function issueUploadCredentials(
  ctx: AppContext,
  endpoint: string,
  auth: AuthContext,
  session: SessionClaims,
  project: ProjectDetails,
  uploadType: UploadType,
): Promise<UploadCredentials> {
  requireUploadAllowed(auth, project, uploadType);
  const prefix = uploadPrefix(project.id, uploadType);
  const issued = await ctx.uploadCredentials.issue({
    userId: auth.user.id,
    projectId: project.id,
    prefix,
    lifetimeSeconds: CREDENTIALS_LIFETIME_SECONDS,
    session,
  });
  const storage = ctx.config.storage;
  return {
    accessKeyId: issued.accessKeyId,
    secretAccessKey: issued.secretAccessKey,
    sessionToken: issued.sessionToken,
    expiration: issued.expiration.toISOString(),
    serverTime: new Date().toISOString(),
    endpoint,
    bucket: storage.bucket,
    region: storage.region,
    forcePathStyle: storage.forcePathStyle,
    prefix,
  };
}

/**
 * A§3 file-name call: the sanitised name, made unique under the project's folder for the
 * type (against registered assets, stored objects and names handed out for uploads still
 * running), reserved for this upload.
 */
export async function checkName(ctx: AppContext, auth: AuthContext, project: ProjectDetails, type: AssetType, requested: string): Promise<CheckName> {
  requireUploadAllowed(auth, project, 'asset');
  const repo = assetsRepo(ctx.db);
  const base = sanitizeFileName(requested);
  const now = new Date();
  for (let n = 0; n < MAX_NAME_VARIANTS; n += 1) {
    const name = nameVariant(base, n);
    const location = assetKey(project.id, type, name);
    if (await repo.keyTaken(location, now)) continue;
    if (await ctx.storage.headObject(location)) continue;
    if (await repo.reserve(location, project.id, auth.user.id, new Date(now.getTime() + RESERVATION_MS), now)) return { name, location };
  }
  throw conflict('Too many files with this name. Rename the file and try again.');
}

function toAsset(row: AssetRow, url: string | null, previewUrl: string | null): Asset {
  return {
    id: row.id,
    name: row.name,
    size: row.size,
    type: { name: row.type },
    path: row.path,
    previewPath: row.previewPath,
    folder: row.folder,
    createdAt: row.createdAt.toISOString(),
    deletedAt: row.deletedAt ? row.deletedAt.toISOString() : null,
    url,
    previewUrl,
    crc32: row.crc32,
    sentCrc32: row.sentCrc32,
  };
}

/** Assets with presigned GETs signed by `presigner`, the store as the browser reaches it (server/storage/setup.ts `browserPresigner`). */
export async function assetsForBrowser(presigner: Pick<ObjectStore, 'presignGet'>, rows: AssetRow[]): Promise<Asset[]> {
  return Promise.all(
    rows.map(async (row) =>
      toAsset(
        row,
        await presigner.presignGet(row.path, ASSET_URL_SECONDS),
        row.previewPath ? await presigner.presignGet(row.previewPath, ASSET_URL_SECONDS) : null,
      ),
    ),
  );
}

class QuotaRefused extends Error {}

/**
 * An object refused at registration (past the quota, or not a file the type takes) goes with
 * its name reservation, unless a record still refers to it: nobody could register it, and it
 * would only hold space nobody pays for (or keep a customer's refused page in the store).
 */
async function discardRefused(ctx: AppContext, path: string): Promise<void> {
  const referenced = (await assetsRepo(ctx.db).livePaths([path])).length > 0;
  if (!referenced) await ctx.storage.deleteObject(path);
  await assetsRepo(ctx.db).release(path);
}

/**
 * POST projects/{id}/assets: the object must exist under the project's folder for its type
 * with the declared size; its bytes are added to the organization's used space in the same
 * transaction as the record, refused past the quota. Registering the same object again
 * answers the existing record (a retried request), with `created` false.
 */
export async function registerAsset(
  ctx: AppContext,
  auth: AuthContext,
  project: ProjectDetails,
  body: RegisterAssetBody,
): Promise<{ row: AssetRow; created: boolean }> {
  requireAssetChange(auth, project);
  const folder = assetFolderPrefix(project.id, body.type);
  const outside = (key: string, prefix: string) =>
    !key.startsWith(prefix) || key.length === prefix.length || key.split('/').some((segment) => segment === '..' || segment === '.');
  if (outside(body.path, folder)) throw badRequest(UPLOAD_MESSAGES.pathOutside, { fields: { path: UPLOAD_MESSAGES.pathOutside } });
  const previewPath = body.previewPath ?? null;
  // A preview is the object itself or its own proxy: never another asset's object, which
  // deleting this record would otherwise remove.
  if (previewPath !== null && previewPath !== body.path && previewPath !== derivedKey(body.path, 'proxy')) {
    throw badRequest(UPLOAD_MESSAGES.pathOutside, { fields: { previewPath: UPLOAD_MESSAGES.pathOutside } });
  }

  const repo = assetsRepo(ctx.db);
  const existing = await repo.findByPath(project.id, body.path);
  if (existing) {
    if (existing.size !== body.size) throw conflict('This file is already registered with another size.');
    return { row: existing, created: false };
  }
  const head = await ctx.storage.headObject(body.path);
  if (!head) throw badRequest(UPLOAD_MESSAGES.objectMissing, { fields: { path: UPLOAD_MESSAGES.objectMissing } });
  if (head.size !== body.size) throw badRequest(UPLOAD_MESSAGES.sizeMismatch, { fields: { size: UPLOAD_MESSAGES.sizeMismatch } });
  if (previewPath !== null && previewPath !== body.path && !(await ctx.storage.headObject(previewPath))) {
    throw badRequest(UPLOAD_MESSAGES.objectMissing, { fields: { previewPath: UPLOAD_MESSAGES.objectMissing } });
  }
  // Issue 9: the bytes decide what may be registered, never the name or the declared type
  // (an HTML page stored as an "image" would otherwise be served from our origin).
  try {
    await requireAcceptedContent(ctx.storage, body.path, head.size, body.type);
  } catch (error) {
    if (error instanceof HttpError) await discardRefused(ctx, body.path);
    throw error;
  }

  try {
    const row = await ctx.db.transaction().execute(async (tx) => {
      const txRepo = assetsRepo(tx);
      if (!(await txRepo.addUsedSpace(project.organizationId, body.size))) throw new QuotaRefused();
      const inserted = await txRepo.insert({
        projectId: project.id,
        name: sanitizeFileName(body.name),
        size: body.size,
        type: body.type,
        path: body.path,
        previewPath,
        // Issue 35: the browser's text is only a hint of where the file sat; what is kept is
        // cleaned as every level of a name is (no `..`, no separators of its own, bounded).
        folder: body.folder ? cleanFolder(body.folder) : null,
        // Kept where the media worker reads the stored object back to compare (its CRC-32): on a
        // store whose objects uploads may replace it never does, and "Checking" would never end.
        sentCrc32: uploadsRefuseOverwrites(ctx.config.storage) ? (body.crc32 ?? null) : null,
        deletedAt: null,
      });
      await txRepo.release(body.path);
      return inserted;
    });
    return { row, created: true };
  } catch (error) {
    if (isUniqueViolation(error)) {
      const raced = await repo.findByPath(project.id, body.path);
      if (raced) return { row: raced, created: false };
    }
    if (error instanceof QuotaRefused) {
      await discardRefused(ctx, body.path);
      throw conflict(UPLOAD_MESSAGES.noMoreMemory, { code: NO_MEMORY_CODE });
    }
    throw error;
  }
}

/**
 * Deletes asset records. An object goes (and its bytes are freed) only with its last live
 * record: duplicated projects share objects. Rows of the paths are locked first, so two
 * deletions of records sharing an object cannot both believe the other one remains.
 */
export async function deleteAssetRecords(ctx: AppContext, project: ProjectDetails, targets: AssetRow[], log: FastifyBaseLogger): Promise<number> {
  if (targets.length === 0) return 0;
  const now = new Date();
  const orphans = await ctx.db.transaction().execute(async (tx) => {
    const repo = assetsRepo(tx);
    const paths = [...new Set(targets.map((asset) => asset.path))];
    const locked = await repo.lockPaths(paths);
    const wanted = new Set(targets.map((asset) => asset.id));
    const deleting = locked.filter((row) => wanted.has(row.id));
    await repo.markDeleted(
      deleting.map((row) => row.id),
      now,
    );
    const deletedIds = new Set(deleting.map((row) => row.id));
    // Read again after the lock, not taken from it: a record of the same object committed while
    // this waited for the lock (a stored copy reused, a duplicate) is seen by this new statement,
    // where the locking one, whose snapshot is older, missed it. Its object must stay.
    const remaining = new Set(await repo.livePaths(paths));
    const orphaned = targets.filter((asset) => deletedIds.has(asset.id) && !remaining.has(asset.path));
    const byPath = new Map(orphaned.map((asset) => [asset.path, asset]));
    await repo.freeUsedSpace(
      project.organizationId,
      [...byPath.values()].reduce((sum, asset) => sum + asset.size, 0),
    );
    // The object, and what the media pipeline derived from it (proxy, thumbnail).
    const keysOf = (asset: AssetRow) => [
      ...new Set([asset.path, asset.previewPath ?? asset.path, derivedKey(asset.path, 'proxy'), derivedKey(asset.path, 'thumbnail')]),
    ];
    return { count: deleting.length, keys: [...byPath.values()].flatMap(keysOf) };
  });
  if (orphans.keys.length) {
    try {
      const result = await ctx.storage.deleteObjects(orphans.keys);
      if (result.errors.length) log.error({ errors: result.errors }, 'some asset objects could not be deleted');
    } catch (error) {
      log.error({ err: error, keys: orphans.keys }, 'asset objects could not be deleted');
    }
  }
  return orphans.count;
}

/** C§4 delete-all: customers, and only for approved, opened or archived projects. */
export function requireDeleteAll(auth: AuthContext, project: ProjectDetails): void {
  if (!isCustomerRole(auth.user.role)) throw forbidden(UPLOAD_MESSAGES.staffCannotChangeAssets);
  if (!canDeleteAllAssets(project.status)) throw conflict(UPLOAD_MESSAGES.deleteAllStatus);
}

/**
 * Server job: multipart uploads begun more than 7 days ago are aborted (their parts hold
 * space nobody sees), and expired reservations and credentials are dropped.
 */
export async function abortAbandonedUploads(ctx: AppContext, now = new Date()): Promise<{ aborted: number; reservations: number; credentials: number }> {
  const cutoff = now.getTime() - ABANDONED_UPLOAD_DAYS * DAY_MS;
  let aborted = 0;
  for (const upload of await ctx.storage.listMultipartUploads('projects/')) {
    if (upload.initiated.getTime() >= cutoff) continue;
    await ctx.storage.abortMultipartUpload(upload.key, upload.uploadId);
    aborted += 1;
  }
  return { aborted, ...(await assetsRepo(ctx.db).removeExpired(now)) };
}
