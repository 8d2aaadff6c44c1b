import type { ReuseStoredCopyBody, StoredCopy, StoredCopyLookupBody } from '../../src/domain/contract/uploads.ts';
import { cleanFolder } from '../../src/domain/camera-card.ts';
import { sanitizeFileName } from '../../src/domain/uploads.ts';
import type { AppContext } from '../context.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { AssetRow } from '../db/schema.ts';
import { notFound } from '../http-error.ts';
import type { AuthContext } from '../plugins/auth.ts';
import { assetsRepo } from '../repositories/assets.ts';
import type { ProjectDetails } from '../repositories/projects.ts';
import { requireAcceptedContent } from './file-content.ts';
import { requireAssetChange } from './uploads.ts';

/**
 * Issue 35, "never send the same bytes twice". Before uploading a file the worker asks whether
 * the organization already holds an object of its size and fingerprint (src/domain/fingerprint.ts)
 * and, when it does, reads the whole file for its CRC-32: equal to the stored object's, the new
 * asset shares that object, as a duplicated project's assets do — 0 bytes sent, nothing more
 * counted against the storage (the organization's bytes are counted per object, and freed with its
 * last record). Size, fingerprint and CRC-32 of the stored object are the media worker's, read
 * from the stored bytes: nothing the browser says about an object is taken on trust.
 */

export const STORED_COPY_MESSAGES = {
  none: 'The organization holds no stored copy of this file: it is uploaded instead.',
  here: 'This project holds this file already: it is uploaded again as a file of its own.',
} as const;

export async function lookupStoredCopy(ctx: AppContext, auth: AuthContext, project: ProjectDetails, body: StoredCopyLookupBody): Promise<StoredCopy> {
  requireAssetChange(auth, project);
  return { found: (await assetsRepo(ctx.db).findStoredCopy(project.organizationId, body.size, body.fingerprint)) !== undefined };
}

/** The new asset of the stored copy (`created` false: a concurrent reuse made it); 404 when there is none, or when this project holds it already. */
export async function reuseStoredCopy(
  ctx: AppContext,
  auth: AuthContext,
  project: ProjectDetails,
  body: ReuseStoredCopyBody,
): Promise<{ row: AssetRow; created: boolean }> {
  requireAssetChange(auth, project);
  const found = await assetsRepo(ctx.db).findStoredCopy(project.organizationId, body.size, body.fingerprint, body.crc32);
  if (!found) throw notFound(STORED_COPY_MESSAGES.none);
  // One record of an object per project: the same file given again here (a second take of the
  // same bytes, under another name or kind) is uploaded as before, a file of its own.
  if (await assetsRepo(ctx.db).findByPath(project.id, found.path)) throw notFound(STORED_COPY_MESSAGES.here);
  // The zone's rule on content, as at registration: a stored image does not become an interview clip.
  try {
    await requireAcceptedContent(ctx.storage, found.path, found.size, body.type);
  } catch (error) {
    // Its last record deleted (and the object with it) while this read it: there is none any more.
    if ((await assetsRepo(ctx.db).livePaths([found.path])).length === 0) throw notFound(STORED_COPY_MESSAGES.none);
    throw error;
  }
  try {
    return await ctx.db.transaction().execute(async (tx) => {
      const repo = assetsRepo(tx);
      // The object's records locked, as a deletion locks them, and one still live: a deletion of
      // the last one either went first (none left: 404), or waits for this commit and then finds
      // this record live (deleteAssetRecords reads what remains after its lock), keeping the object.
      const live = await repo.lockPaths([found.path]);
      const copy = live.length > 0 ? await repo.findLiveById(live[0]!.id) : undefined;
      if (!copy) throw notFound(STORED_COPY_MESSAGES.none);
      const row = await repo.insert({
        projectId: project.id,
        name: sanitizeFileName(body.name),
        size: copy.size,
        type: body.type,
        path: copy.path,
        previewPath: copy.previewPath,
        crc32: copy.crc32,
        fingerprint: copy.fingerprint,
        sentCrc32: body.crc32,
        folder: body.folder ? cleanFolder(body.folder) : null,
        deletedAt: null,
      });
      return { row, created: true };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      const raced = await assetsRepo(ctx.db).findByPath(project.id, found.path);
      if (raced) return { row: raced, created: false };
    }
    throw error;
  }
}
